import AdSession
import Foundation
import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

/// Sessions in process on doubles, as Media3's `TestExoPlayerBuilder` builds a player: tags from memory by URL, media
/// replayed from timelines (the clips in `media/` decoded once by FFmpeg), beacons to a `RecordingTransport` with
/// scripted answers, playback on a `VirtualClock` and the network on a `ManualClock`. Nothing waits in real time and
/// nothing reaches a socket, so every time a test asserts is exact and the verdict is the same on a busy machine.
///
/// ```swift
/// var kit = SessionKit()
/// kit.tag("https://ads.example/vast.xml", xml)
/// kit.media("https://cdn.example/clip.mp4", clip: "clip-10s-360p.mp4")
/// let run = await kit.run(kit.configuration("https://ads.example/vast.xml"))
/// #expect(run.events(.midpoint).map(\.playhead) == [.seconds(5)])
/// ```
public struct SessionKit: Sendable {
    /// Canned answers for http(s) tags, by URL.
    public var tags: [String: InMemoryTagFetcher.Response] = [:]
    /// What each media location replays or fails with.
    public var media = TimelineMediaOpener()
    /// How beacons are answered.
    public var answers: [RecordingTransport.Answer] = [.ok]
    public var answersByURL: [(contains: String, answer: RecordingTransport.Answer)] = []
    /// The network's clock: tag timeouts, beacon backoff and waits, the end-of-session drain. It moves only when a
    /// test advances it.
    public let networkClock = ManualClock()
    /// Every tag URL the sessions of this kit (and its copies) asked for, in order.
    public let tagRequests = Locked<[String]>([])
    /// The transport of each environment made so far (a test driving the clock watches the requests go out).
    public let transports = Locked<[RecordingTransport]>([])
    /// Milliseconds since 1970 at the network clock's zero: `[TIMESTAMP]`, `sentAt` (2026-01-01T00:00:00Z).
    public var wallStart: Int64 = 1_767_225_600_000
    /// Use FFmpeg on the real files instead of replayed timelines (a simulated network needs the bytes' map).
    public var realMedia = false
    /// Each real-media call (open, demux, byte map) that ran off a `BlockingExecutor`'s threads: FFmpeg blocks its
    /// thread, and on one of the cooperative pool's (one per core) it stops every other test's async code meanwhile.
    public let mediaOffItsThreads = Locked<[String]>([])

    public init() {}

    /// A tag answered from memory at `url`.
    public mutating func tag(_ url: String, _ xml: String) { tags[url] = .body(Data(xml.utf8)) }
    /// The clip `media/<clip>` replayed wherever a tag names `url`.
    public mutating func media(_ url: String, clip: String) throws(MediaError) {
        media.timelines[url] = try TimelineMediaOpener.clip(clip)
    }

    /// A configuration for `tag` (a URL the kit answers, or a path) with the kit's fixed instant and seed 1.
    public func configuration(_ tag: String, dryRun: Bool = false) -> SessionConfiguration {
        var configuration = SessionConfiguration(tag: tag)
        configuration.dryRun = dryRun
        configuration.now = wallStart
        configuration.decoderThreads = 1
        return configuration
    }

    /// The environment a session of `configuration` runs in, with the transport it sends through.
    public func environment(_ configuration: SessionConfiguration) -> (SessionEnvironment, RecordingTransport) {
        let transport = RecordingTransport(answers: answers, byURL: answersByURL, clock: networkClock)
        transports.withLock { $0.append(transport) }
        let clock = networkClock, start = wallStart
        // Real media: FFmpeg behind the live opener (built as for a dry run: no beacon transport; its tag client, which
        // follows media redirects, is shut down with the session).
        var dryRun = configuration
        dryRun.dryRun = true
        // FFmpeg runs where the live environment runs it (the media executor's threads), checked at every call.
        let live = realMedia ? SessionEnvironment.live(dryRun) : nil
        var environment = SessionEnvironment(
            tagFetcher: InMemoryTagFetcher(responses: tags, log: tagRequests), beaconTransport: configuration.dryRun ? nil : transport,
            media: live.map { ThreadCheckedOpener(base: $0.media, offThreads: mediaOffItsThreads) } ?? media,
            networkClock: clock, wallClock: { start + clock.now.offset.wholeMilliseconds },
            mediaExecutor: live?.mediaExecutor, shutdown: { await live?.shutdown() })
        environment.playbackClock = { _ in VirtualClock() }
        return (environment, transport)
    }

    /// Plays one session to its end and returns everything it reported.
    public func run(_ configuration: SessionConfiguration) async -> SessionRun {
        let (environment, transport) = environment(configuration)
        let records = Locked<[SessionRecord]>([])
        let summary = await AdSessionRunner(configuration: configuration, environment: environment).run { record in
            records.withLock { $0.append(record) }
        }
        return SessionRun(summary: summary, records: records.withLock { $0 }, sent: transport.urls)
    }

    /// Plays one session while `drive` moves the network clock: for what waits on the network (a beacon's answer, the
    /// end-of-session drain, a retry's backoff). `drive` gets the transport (what has been asked for so far), the
    /// clock and the records reported so far; it should wait for what it expects (`ManualClock.waitForSleepers`,
    /// `SessionDrive.waitForRecords`) before advancing, so every wait starts and ends at an exact network time. The
    /// session's result is returned once both are done.
    public func run(_ configuration: SessionConfiguration,
                    driving drive: @escaping @Sendable (SessionDrive) async -> Void) async -> SessionRun {
        let (environment, transport) = environment(configuration)
        let records = Locked<[SessionRecord]>([])
        async let driven: Void = drive(SessionDrive(transport: transport, clock: networkClock, records: records))
        let summary = await AdSessionRunner(configuration: configuration, environment: environment).run { record in
            records.withLock { $0.append(record) }
        }
        await driven
        return SessionRun(summary: summary, records: records.withLock { $0 }, sent: transport.urls)
    }

    /// Resolves and prepares `configuration`'s ad without playing it, as `vplay inspect` does.
    public func inspect(_ configuration: SessionConfiguration, openMedia: Bool = true) async -> AdInspection {
        await AdInspector(configuration: configuration, environment: environment(configuration).0).inspect(openMedia: openMedia)
    }

    /// A fleet of `configuration` in process, on the kit's doubles.
    public func fleet(_ configuration: FleetConfiguration) async -> (Result<FleetReport, FleetFailure>, sent: [String]) {
        let (result, timed) = await timedFleet(configuration)
        return (result, timed.map(\.url))
    }

    /// A fleet of `configuration` in process, with each request's time on the network clock.
    public func timedFleet(_ configuration: FleetConfiguration) async -> (Result<FleetReport, FleetFailure>, sent: [(url: String, at: Duration)]) {
        let (environment, transport) = environment(configuration.session)
        let result = await FleetRunner(configuration: configuration, environment: environment).run()
        return (result, transport.timed.withLock { $0 })
    }
}

/// What a test driving a session's network clock sees while the session runs.
public struct SessionDrive: Sendable {
    /// The transport, with what has been asked for so far.
    public let transport: RecordingTransport
    /// The network clock the test moves.
    public let clock: ManualClock
    let records: Locked<[SessionRecord]>

    /// The beacon records reported so far.
    public var attempts: [BeaconRecord] {
        records.withLock { $0.compactMap { if case let .beacon(beacon) = $0 { beacon } else { nil } } }
    }

    /// Waits until `count` beacon records have been reported: an answer that came at this network time has been
    /// taken in by the session before the clock moves on (an answer still being handled when the drain's limit
    /// passes is, rightly, cut off).
    public func waitForRecords(_ count: Int) async {
        while attempts.count < count { await Task.yield() }
    }
}

/// What one session reported, as values.
public struct SessionRun: Sendable {
    public var summary: SessionSummary
    /// Every record, in the order the session reported them.
    public var records: [SessionRecord]
    /// The URLs the transport was asked for, in order (every attempt; empty in a dry run).
    public var sent: [String]

    public init(summary: SessionSummary, records: [SessionRecord], sent: [String]) {
        (self.summary, self.records, self.sent) = (summary, records, sent)
    }

    public var events: [PlaybackEvent] { records.compactMap { if case let .event(event) = $0 { event } else { nil } } }
    /// Every attempt (a dry run's planned beacons, one record each).
    public var attempts: [BeaconRecord] { records.compactMap { if case let .beacon(beacon) = $0 { beacon } else { nil } } }
    /// The beacons the session planned, each once: the first attempt of each.
    public var planned: [PlannedBeacon] { attempts.filter { $0.attempt <= 1 }.map(\.planned) }
    public var warnings: [String] { records.compactMap { if case let .warning(text) = $0 { text } else { nil } } }
    public var errors: [SessionError] { records.compactMap { if case let .error(error) = $0 { error } else { nil } } }
    public var ads: [PodAdReport] { records.compactMap { if case let .ad(report) = $0 { report } else { nil } } }

    /// The events named `name`, in order.
    public func events(_ name: PlaybackEvent.Name) -> [PlaybackEvent] { events.filter { $0.name == name } }
    /// The planned beacons of tracking event `event` (`impression`, `midpoint`, `error`…), in order.
    public func beacons(_ event: String) -> [PlannedBeacon] { planned.filter { $0.event == event } }
    /// Event names in order, for comparing sequences.
    public var eventNames: [PlaybackEvent.Name] { events.map(\.name) }
}

extension SessionKit {
    /// The HAR of the demo (`media/demo.xml`) played by a perfect player: every beacon the session fired, sent at its
    /// exact session time from the kit's `wallStart`, answered 200 at once.
    public func perfectPlayerHAR() async throws -> Data {
        let run = await run(configuration(Repo.media("demo.xml")))
        let entries: [[String: Any]] = run.attempts.map { beacon in
            ["startedDateTime": ISO8601Time.text(milliseconds: wallStart + beacon.clock.wholeMilliseconds), "time": 1,
             "request": ["method": "GET", "url": beacon.url, "httpVersion": "HTTP/1.1", "headers": [Any](), "queryString": [Any](), "cookies": [Any](),
                         "headersSize": -1, "bodySize": 0],
             "response": ["status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "headers": [Any](), "cookies": [Any](),
                          "content": ["size": 0, "mimeType": "image/gif"], "redirectURL": "", "headersSize": -1, "bodySize": 0],
             "cache": [String: Any](), "timings": ["send": 0, "wait": 1, "receive": 0]]
        }
        let log: [String: Any] = ["version": "1.2", "creator": ["name": "vplay-tests", "version": "1"], "entries": entries]
        return try JSONSerialization.data(withJSONObject: ["log": log])
    }
}

/// A media opener that records each call made off a `BlockingExecutor`'s threads, then makes it.
struct ThreadCheckedOpener: MediaOpening {
    let base: any MediaOpening
    let offThreads: Locked<[String]>

    private func check(_ call: String, _ location: String) {
        if !BlockingExecutor.isAnyCurrent { offThreads.withLock { $0.append("\(call) \(location)") } }
    }

    func open(_ location: String, options: MediaOpenOptions) throws(MediaError) -> any MediaSource {
        check("open", location)
        return try base.open(location, options: options)
    }

    func openForDemux(_ location: String) throws(MediaError) -> any PacketSource {
        check("openForDemux", location)
        return try base.openForDemux(location)
    }

    func deliveryMap(_ location: String, timelineStart: Duration, streaming: StreamingOptions?) throws(MediaError) -> DeliveryMap {
        check("deliveryMap", location)
        return try base.deliveryMap(location, timelineStart: timelineStart, streaming: streaming)
    }
}
