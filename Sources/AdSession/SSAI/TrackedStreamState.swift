import Findings
import Foundation
import PlayerEngine
import TrackingBeacons

/// The schedule of a tracked stream as it plays: every avail known so far (polls add more), its events waiting for
/// their time, and the report each event's fate is written to.
struct TrackedStreamState {
    typealias Key = TrackedStreamSession.Key
    let playback: TrackedStreamPlayback
    let streamDuration: Duration
    var report: TrackedStreamReport
    private(set) var avails: [TrackingDocument.Avail] = []
    /// The avails' identities (`availId`, else start time), for polls.
    private var known = Set<String>()
    /// Timed events still to fire, by time, then break starts before ads before break ends, then document order.
    private var pending: [(time: Duration, rank: Int, key: Key)] = []

    /// The schedule of `document` (at `url`) for a stream played by `playback`: its avails merged, its findings made,
    /// an assumed length said; nothing fired yet.
    init(document: TrackingDocument, url: String, playback: TrackedStreamPlayback) {
        self.playback = playback
        let given = playback.streamDuration ?? document.streamDuration
        streamDuration = given ?? TrackedStreamPlayback.defaultDuration(document)
        report = TrackedStreamReport(documentURL: url, reporting: playback.reporting, streamDuration: streamDuration,
                                     streamDurationGiven: given != nil)
        report.polls = 1
        merge(document)
        if given == nil {
            report.findings.append(Finding(.ssaiStreamDuration, "the stream's length is assumed: \(streamDuration.seconds) s (the last avail's end plus 30 s; --content-duration sets it)").description)
        }
    }

    func event(_ key: Key) -> TrackingDocument.Event {
        let avail = avails[key.avail - 1]
        return key.ad.map { avail.ads[$0 - 1].events[key.event] } ?? avail.breakEvents[key.event]
    }

    private mutating func update(_ key: Key, _ change: (inout TrackedStreamReport.EventReport) -> Void) {
        if let ad = key.ad {
            change(&report.avails[key.avail - 1].ads[ad - 1].events[key.event])
        } else {
            change(&report.avails[key.avail - 1].breakEvents[key.event])
        }
    }

    /// Adds a document's avails not known yet (a poll repeats those already known: their first version plays).
    mutating func merge(_ document: TrackingDocument) {
        if document.nonLinearCount > 0 {
            report.findings.append(Finding(.ssaiNonLinear, "\(document.nonLinearCount) non-linear avail(s) listed: a video stream's player shows none of them; not played").description)
        }
        for avail in document.avails {
            let identity = avail.availID ?? "@\(avail.start.wholeMilliseconds)"
            guard known.insert(identity).inserted else { continue }
            avails.append(avail)
            add(avail, number: avails.count)
        }
        pending.sort { ($0.time, $0.rank, $0.key) < ($1.time, $1.rank, $1.key) }
    }

    private mutating func add(_ avail: TrackingDocument.Avail, number: Int) {
        let rules = TrackedStreamRules(avail: avail, number: number)
        report.findings += rules.findings().map(\.description)
        let breakEvents = avail.breakEvents.enumerated().map { index, event in
            entry(event, key: Key(avail: number, ad: nil, event: index), rank: event.type == "breakEnd" ? 2 : 0, rule: rules.time(of: event.type, ad: nil))
        }
        let ads = avail.ads.enumerated().map { adIndex, ad in
            TrackedStreamReport.AdReport(number: adIndex + 1, adID: ad.adID, start: ad.start, duration: ad.duration, events: ad.events.enumerated().map { index, event in
                entry(event, key: Key(avail: number, ad: adIndex + 1, event: index), rank: 1, rule: rules.time(of: event.type, ad: ad))
            })
        }
        report.avails.append(TrackedStreamReport.AvailReport(number: number, availID: avail.availID, start: avail.start, duration: avail.duration,
                                                             breakEvents: breakEvents, ads: ads))
        report.findings += rules.offRule(breakEvents: breakEvents, ads: ads).map(\.description)
    }

    /// An event's report entry, and its place in the schedule when the player fires it.
    private mutating func entry(_ event: TrackingDocument.Event, key: Key, rank: Int, rule: Duration?) -> TrackedStreamReport.EventReport {
        var status = TrackedStreamReport.Status.notReached
        if !TrackingDocument.timedTypes.contains(event.type) {
            status = .interaction
        } else if playback.reporting == .hybrid, TrackingDocument.serverTypesInHybrid.contains(event.type) {
            status = .server
        } else {
            pending.append((event.start, rank, key))
        }
        return TrackedStreamReport.EventReport(type: event.type, eventID: event.eventID, documentTime: event.start, ruleTime: rule, firedAt: nil,
                                               status: status, beacons: 0)
    }

    /// The stream time of the next event still to fire, at or after `now`.
    func nextDue(after now: Duration) -> Duration? {
        pending.first(where: { $0.time >= now })?.time
    }

    /// A seek from `from` to `to`: forward, the events between were never played; backward, nothing (an event
    /// fires once).
    mutating func seeked(from: Duration, to: Duration) {
        guard to > from else { return }
        let passed = pending.filter { $0.time >= from && $0.time < to }
        pending.removeAll { $0.time >= from && $0.time < to }
        for item in passed { update(item.key) { $0.status = .seekedPast } }
    }

    /// Fires every event due by `now`.
    mutating func fire(at now: VMAPSession.Position, beacons: inout TrackedStreamBeacons, outlet: AdSessionRunner.Outlet) async {
        while let item = pending.first, item.time <= now.content {
            pending.removeFirst()
            await send(item.key, at: now, beacons: &beacons, outlet: outlet)
        }
    }

    /// The app goes to the background (`entering`) or comes back while an ad plays: the ad's `pause` or `resume`.
    mutating func background(at now: VMAPSession.Position, entering: Bool, beacons: inout TrackedStreamBeacons, outlet: AdSessionRunner.Outlet) async {
        let type = entering ? "pause" : "resume"
        for (availIndex, avail) in avails.enumerated() {
            guard let adIndex = avail.ads.firstIndex(where: { $0.start <= now.content && now.content < $0.end }) else { continue }
            for (index, event) in avail.ads[adIndex].events.enumerated() where event.type == type {
                await send(Key(avail: availIndex + 1, ad: adIndex + 1, event: index), at: now, beacons: &beacons, outlet: outlet)
            }
        }
    }

    private mutating func send(_ key: Key, at now: VMAPSession.Position, beacons: inout TrackedStreamBeacons, outlet: AdSessionRunner.Outlet) async {
        let event = event(key), avail = avails[key.avail - 1]
        let adStart = key.ad.map { avail.ads[$0 - 1].start }
        let position = avail.start == .zero ? 1 : (avail.start >= streamDuration ? 3 : 2)
        let place = TrackedStreamBeacons.Place(avail: key.avail, ad: key.ad, breakPosition: position, adStart: adStart)
        let planned = beacons.fire(event, place: place, stream: now.content, clock: now.session)
        update(key) {
            if $0.firedAt == nil { $0.firedAt = now.session }
            $0.status = .fired
            $0.beacons += planned.count
        }
        if let name = PlaybackEvent.Name(rawValue: event.type), let adStart {
            var record = PlaybackEvent(name: name, playhead: max(.zero, now.content - adStart), clock: now.session)
            record.adBreak = key.avail
            await outlet.tally.send(.event(record))
        }
        for beacon in planned {
            await outlet.tally.planned()
            await outlet.dispatcher.submit(beacon)
        }
    }

    /// The stream is over: what never fired stays `notReached`.
    mutating func finish() {
        pending.removeAll()
    }
}
