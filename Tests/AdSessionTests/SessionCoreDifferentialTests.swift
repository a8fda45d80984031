import Foundation
import Primitives
import Testing
import TestSupport
@testable import AdSession
import PlayerEngine
import TrackingBeacons
import VAST

/// Answers every beacon 200 at once and keeps the URLs, for comparing what two runs fire.
final class URLRecorder: BeaconTransport {
    private let urls = Locked<[String]>([])
    func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        urls.withLock { $0.append(url) }
        return TransportOutcome(status: 200, error: nil, latency: .zero, bytes: 0)
    }
    var sorted: [String] { urls.withLock { $0.sorted() } }
}

/// The single-session runner and a one-session fleet go through the same session core, so for the same tag,
/// scenario and seed they fire the same beacons: the multiset of expanded URLs (Error URLs and
/// verificationNotExecuted included) is identical. Before the core they were not: the fleet fired no failure or
/// verification URLs and ignored `--adcash-state`.
@Suite struct SessionCoreDifferentialTests {
    static let seed: UInt64 = 11

    /// A tag with what only the prelude fires: a verification (verificationNotExecuted, REASON 2), a broken pod ad
    /// before the one that plays (its Error URL with 101… or 403), a first MediaFile that does not exist.
    static func preludeTag(in folder: TemporaryFolder) throws -> String {
        let clip = Repo.media("clip-5s-video-only.mp4")
        return try folder.write("prelude.xml", """
            <VAST version="4.1">
              <Ad id="broken" sequence="1"><InLine><AdSystem>x</AdSystem><AdTitle>t</AdTitle>
                <Error><![CDATA[http://127.0.0.1:9/broken-error?code=[ERRORCODE]]]></Error>
                <Impression><![CDATA[http://127.0.0.1:9/broken-imp]]></Impression>
                <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
                  <MediaFile delivery="progressive" type="video/x-flv" width="640" height="360"><![CDATA[http://127.0.0.1:9/a.flv]]></MediaFile>
                </MediaFiles></Linear></Creative></Creatives></InLine></Ad>
              <Ad id="plays" sequence="2"><InLine><AdSystem>x</AdSystem><AdTitle>t</AdTitle>
                <Error><![CDATA[http://127.0.0.1:9/error?code=[ERRORCODE]&pos=[ADPLAYHEAD]]]></Error>
                <Impression><![CDATA[http://127.0.0.1:9/imp?cb=[CACHEBUSTING]&ts=[TIMESTAMP]]]></Impression>
                <AdVerifications><Verification vendor="v.example">
                  <JavaScriptResource apiFramework="omid"><![CDATA[http://127.0.0.1:9/omid.js]]></JavaScriptResource>
                  <TrackingEvents><Tracking event="verificationNotExecuted"><![CDATA[http://127.0.0.1:9/vne?r=[REASON]]]></Tracking></TrackingEvents>
                </Verification></AdVerifications>
                <Creatives><Creative><Linear skipoffset="00:00:02">
                  <Duration>00:00:05</Duration>
                  <TrackingEvents>
                    <Tracking event="start"><![CDATA[http://127.0.0.1:9/start?cb=[CACHEBUSTING]]]></Tracking>
                    <Tracking event="midpoint"><![CDATA[http://127.0.0.1:9/mid?pos=[ADPLAYHEAD]]]></Tracking>
                    <Tracking event="pause"><![CDATA[http://127.0.0.1:9/pause?pos=[ADPLAYHEAD]]]></Tracking>
                    <Tracking event="resume"><![CDATA[http://127.0.0.1:9/resume?pos=[ADPLAYHEAD]]]></Tracking>
                    <Tracking event="skip"><![CDATA[http://127.0.0.1:9/skip?pos=[ADPLAYHEAD]]]></Tracking>
                    <Tracking event="complete"><![CDATA[http://127.0.0.1:9/complete]]></Tracking>
                    <Tracking event="closeLinear"><![CDATA[http://127.0.0.1:9/close?pos=[ADPLAYHEAD]]]></Tracking>
                  </TrackingEvents>
                  <VideoClicks><ClickThrough><![CDATA[https://example.com/]]></ClickThrough>
                    <ClickTracking><![CDATA[http://127.0.0.1:9/click?pos=[ADPLAYHEAD]]]></ClickTracking></VideoClicks>
                  <MediaFiles>
                    <MediaFile delivery="progressive" type="video/mp4" width="640" height="360" bitrate="900"><![CDATA[file://\(folder.url.path)/missing.mp4]]></MediaFile>
                    <MediaFile delivery="progressive" type="video/mp4" width="640" height="360" bitrate="100"><![CDATA[file://\(clip)]]></MediaFile>
                  </MediaFiles></Linear></Creative></Creatives></InLine></Ad>
            </VAST>
            """)
    }

    /// A tag with no ad: only its Error URL fires (303).
    static func noAdTag(in folder: TemporaryFolder) throws -> String {
        try folder.write("noad.xml", """
            <VAST version="4.1"><Error><![CDATA[http://127.0.0.1:9/noad?code=[ERRORCODE]&cb=[CACHEBUSTING]]]></Error></VAST>
            """)
    }

    /// Every tag in media/ and the two above, with every scenario kind and `--adcash-state` on and off; then every
    /// IAB sample present, each with one kind in turn (so the samples cover every kind) and no state file: each
    /// playing sample costs two full decodes of a 15 s 720p clip, and the 37 of them with all six kinds took 15 min.
    /// One case per tag, so Swift Testing runs them on every core: each tag in media/, the two above, and each IAB
    /// sample present (by its path under the samples' folder).
    static let cases: [String] = {
        let own = (try? FileManager.default.contentsOfDirectory(atPath: Repo.root.appendingPathComponent("media").path)) ?? []
        let iab = Repo.iabAvailable ? ((try? FileManager.default.subpathsOfDirectory(atPath: iabRoot.path)) ?? []) : []
        return own.filter { $0.hasSuffix(".xml") }.sorted().map { "media/" + $0 } + ["prelude", "noad"]
            + iab.filter { $0.hasSuffix(".xml") }.sorted().map { "iab/" + $0 }
    }()

    static var iabRoot: URL { URL(fileURLWithPath: Repo.iabMP4).deletingLastPathComponent().deletingLastPathComponent() }

    /// A case's tag, `--map` rules, scenario kinds and `--adcash-state` modes: every kind with the state file on and
    /// off for our own tags; for an IAB sample one kind, in turn by its position (so the samples cover every kind),
    /// without a state file — each playing sample costs two full decodes of a 15 s 720p clip.
    static func tag(_ name: String, in folder: TemporaryFolder) throws -> (path: String, mappings: [URLMapping], kinds: [FleetScenario.Kind], adcash: [Bool]) {
        let all = FleetScenario.Kind.allCases
        switch name {
        case "prelude": return (try preludeTag(in: folder), [], all, [false, true])
        case "noad": return (try noAdTag(in: folder), [], all, [false, true])
        case _ where name.hasPrefix("media/"): return (Repo.media(String(name.dropFirst(6))), [], all, [false, true])
        default:
            let iab = iabRoot
            let maps = [
                URLMapping(argument: "https://iab-publicfiles.s3.amazonaws.com/vast/=\(iab.path)/media/", relativeTo: folder.url),
                URLMapping(argument: "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/VAST_Samples/master/VAST%204.0%20Samples/=\(iab.path)/vast4.0/", relativeTo: folder.url),
                URLMapping(argument: "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/VAST_Samples/master/VAST%203.0%20Samples/=\(iab.path)/vast3/", relativeTo: folder.url),
            ].compactMap { $0 }
            let index = cases.firstIndex(of: name) ?? 0
            return (iab.appendingPathComponent(String(name.dropFirst(4))).path, maps, [all[index % all.count]], [false])
        }
    }

    func configuration(_ tag: String, mappings: [URLMapping], adcash: String?) -> SessionConfiguration {
        var configuration = SessionConfiguration(tag: tag)
        configuration.mappings = mappings
        configuration.seed = Self.seed
        configuration.now = 1_767_225_600_000
        configuration.adcashStatePath = adcash
        // The recorder keeps a URL when its attempt runs; the drain waits for every attempt, however long a busy
        // test process keeps it from running (at the default 10 s, a run 129 s into the whole suite lost a
        // `complete` fired at the session's end).
        configuration.beaconDrain = .seconds(300)
        // Likewise the wrapper fetches (local files through `--map`): at IMA's 4 s, a test process starved for that
        // long failed the test's own preparation with 301 and drew no scenario (an empty script for the single
        // run) while the fleet, prepared a moment later, drew `close`: the single run then fired `complete` and
        // the fleet did not.
        configuration.resolver.firstRequestTimeout = .seconds(300)
        configuration.resolver.wrapperTimeout = .seconds(300)
        configuration.resolver.resolutionTimeout = .seconds(600)
        return configuration
    }

    func environment(_ configuration: SessionConfiguration, recorder: URLRecorder) -> SessionEnvironment {
        var environment = SessionEnvironment.live(configuration)
        environment.beaconTransport = recorder
        return environment
    }

    /// The URLs one session fires through `AdSessionRunner`, playing `scenario`'s script.
    func single(_ configuration: SessionConfiguration, script: SessionScript) async -> [String] {
        var configuration = configuration
        configuration.script = script
        let recorder = URLRecorder()
        _ = await AdSessionRunner(configuration: configuration, environment: environment(configuration, recorder: recorder)).run { _ in }
        return recorder.sorted
    }

    /// The URLs a one-session fleet of `kind` fires, the scenario it drew, and what its report says of its beacons
    /// (for a failure's message: each template's expected/sent/delivered, and the failures by reason).
    func fleet(_ configuration: SessionConfiguration, kind: FleetScenario.Kind, facts: FleetScenario.Facts?) async throws
        -> ([String], SessionScript, report: String) {
        let mix = try FleetMix(parsing: "\(kind.rawValue):1")
        let recorder = URLRecorder()
        let fleet = FleetConfiguration(session: configuration, sessions: 1, mix: mix)
        let result = await FleetRunner(configuration: fleet, environment: environment(configuration, recorder: recorder)).run()
        let script = facts.map { FleetScenario.draw(index: 0, seed: Self.seed, mix: mix, facts: $0).script } ?? SessionScript()
        let report: String = switch result {
        case let .success(report):
            report.population.beacons.map { "\($0.event) \($0.expected)/\($0.sent)/\($0.delivered)" }.joined(separator: ", ")
                + "; failures \(report.population.failures); scenarios \(report.population.scenarios)"
        case let .failure(failure): "failed: \(failure.error)"
        }
        return (recorder.sorted, script, report)
    }

    @Test(.hangLimit, arguments: cases)
    func singleSessionAndOneSessionFleet_fireTheSameBeacons_forEveryScenario(_ name: String) async throws {
        let folder = try TemporaryFolder()
        let state = #"{"quality":"low","downloadSeconds":0.5}"#
        let (tag, mappings, kinds, adcashModes) = try Self.tag(name, in: folder)
        // The scenario's facts (duration, skip offset) come from the same preparation the runners make.
        let base = configuration(tag, mappings: mappings, adcash: nil)
        let live = SessionEnvironment.live(base)
        let prepared = await AdPreparation(configuration: base, environment: live).prepare(.play)
        await live.shutdown()
        let facts = prepared.media.map { FleetScenario.Facts(duration: $0.duration, skipOffset: prepared.leadTurn?.plan.playback?.rules.skipOffset) }
        // The scenario's script for the single run is drawn from these facts: without media (no ad, or none
        // playable), an empty one. Named in a failure's message, with the preparation's own error.
        let preparation = "the test's preparation: \(facts.map { "\($0)" } ?? "no media"), \(prepared.failure.map { "\($0)" } ?? "no error")"
        for adcash in adcashModes {
            for kind in kinds {
                // Each run starts from the same saved download, as two viewers with the same history would.
                let statePath = adcash ? try folder.write("adcash-\(kind).json", state) : nil
                let (fleetURLs, script, fleetReport) = try await fleet(configuration(tag, mappings: mappings, adcash: statePath), kind: kind, facts: facts)
                if adcash { _ = try folder.write("adcash-\(kind).json", state) }
                let singleURLs = await single(configuration(tag, mappings: mappings, adcash: statePath), script: script)
                #expect(singleURLs == fleetURLs, "\(name) \(kind) adcash=\(adcash); the fleet's report: \(fleetReport); \(preparation)")
                #expect(!singleURLs.isEmpty || !tag.contains("prelude"), "the prelude tag fires")
            }
        }
    }

    /// The prelude tag's failure and verification URLs are among what a fleet session fires (they were not before).
    @Test func fleetSession_firesPreludeErrorAndVerificationURLs() async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.preludeTag(in: folder)
        let (urls, _, _) = try await fleet(configuration(tag, mappings: [], adcash: nil), kind: .complete, facts: nil)
        #expect(urls.contains("http://127.0.0.1:9/vne?r=2"))
        #expect(urls.contains { $0.hasPrefix("http://127.0.0.1:9/broken-error?code=") })
        let (noAd, _, _) = try await fleet(configuration(try Self.noAdTag(in: folder), mappings: [], adcash: nil), kind: .complete, facts: nil)
        #expect(noAd.count == 1 && noAd[0].hasPrefix("http://127.0.0.1:9/noad?code=303"))
    }
}
