import AdSession
import Foundation
import PlayerEngine
import Primitives
import Testing
import TestSupport
@testable import vplay

/// Pods (issue 17) in the workflows around a run, in process: expectations that name an ad, what `inspect` says of
/// a pod, a wrapper's `fallbackOnNoAd`, the break's ad limit, a media failure inside one ad. What only a process shows
/// of pods (the embedded sink receiving every ad's beacons, report and timeline files) is `PodTests`.
@Suite struct PodWorkflowBehaviourTests {
    let kit = SessionKit()

    @Test func expectations_canNameAnAd() async throws {
        let folder = try TemporaryFolder()
        let expectations = ExpectationBehaviourTests()
        let good = try folder.write("good.json", """
            {"events": [{"name": "impression", "ad": 2, "clock": 5, "playhead": 0}, {"name": "complete", "ad": 3, "count": 1}],
             "beacons": [{"url": "*/pod/pod-ad-2/impression*", "ad": 2}, {"event": "impression", "ad": 3, "count": 1}]}
            """)
        let pass = try await expectations.verdict(["--vast", "media/pods/pod.xml", "--dry-run", "--expect", good])
        #expect(pass.failed.isEmpty && pass.exitCode == 0, "\(pass.failed)")
        let bad = try folder.write("bad.json", """
            {"events": [{"name": "impression", "ad": 3, "clock": 5}], "beacons": [{"url": "*/pod/pod-ad-2/impression*", "ad": 1}]}
            """)
        let fail = try await expectations.verdict(["--vast", "media/pods/pod.xml", "--dry-run", "--expect", bad])
        #expect(fail.exitCode == 1)
        #expect(fail.failed.map { "\($0.name): \($0.detail ?? "")" }
            == ["impression in ad 3 at clock 5.000 s ±0.001 s: was at clock 10.000 s (off by +5.000 s)",
                "beacon matching */pod/pod-ad-2/impression* in ad 1 fires once: fired never"], "\(fail.failed)")
        // A golden file of a pod run (through the wrapper) records each ad's beacons apart, and passes against the
        // same run.
        let golden = folder.url.appendingPathComponent("golden.json").path
        let arguments = ["--vast", "media/pods/pod-wrapper.xml", "--map", "http://pods.vplay.test/=media", "--dry-run"]
        try await expectations.record(arguments, to: golden)
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(text.contains("\"ad\" : 3") || text.contains("\"ad\":3"), "\(text.prefix(400))")
        let again = try await expectations.verdict(arguments + ["--expect", golden])
        #expect(again.failed.isEmpty && again.exitCode == 0, "\(again.failed)")
    }

    @Test func inspect_listsThePod() async throws {
        let failing = try await kit.inspect(cli: ["inspect", "--vast", "media/pods/pod-failing.xml"])
        #expect(failing.pod.map { "\($0.ad.index) \($0.ad.id ?? "") \($0.error?.code.rawValue ?? 0) \($0.substitute)" }
            == ["1 pod-ad-1 0 false", "2 pod-ad-2 401 false", "2 pod-standalone 0 true", "3 pod-ad-3 0 false"])
        let text = InspectRendering.text(failing)
        #expect(text.contains("pod: 3 places"), "\(text)")
        #expect(text.contains("ad 2 (id pod-ad-2, sequence 2): 401"), "\(text)")
        #expect(text.contains("ad 2 (id pod-standalone, stand-alone, substitute): plays"), "\(text)")
        let pod = try await kit.inspect(cli: ["inspect", "--vast", "media/pods/pod.xml", "--json"]).pod
        #expect(pod.count == 3 && pod.allSatisfy { $0.error == nil && !$0.cut })
    }

    /// A pod ad whose wrapper says fallbackOnNoAd="false" and fails is not replaced: the buffet ad is never even
    /// requested, and the pod moves on. Another failing place still takes the buffet ad, requested only then.
    @Test func fallbackOnNoAdFalse_keepsTheBuffetOutOfThatPlace() async throws {
        let base = "https://pods.example"
        var kit = kit
        try kit.media("\(base)/clip.mp4", clip: "clip-5s-video-only.mp4")
        kit.tag("\(base)/empty.xml", #"<VAST version="4.2"/>"#)
        kit.tag("\(base)/empty2.xml", #"<VAST version="4.2"/>"#)
        kit.tag("\(base)/buffet.xml", """
            <VAST version="4.2"><Ad id="buffet"><InLine><AdSystem>b</AdSystem><AdTitle>b</AdTitle>
            <Impression><![CDATA[http://127.0.0.1:9/buffet/imp]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """)
        func inLine(_ id: String, _ sequence: Int) -> String {
            """
            <Ad id="\(id)" sequence="\(sequence)"><InLine><AdSystem>p</AdSystem><AdTitle>\(id)</AdTitle>
            <Impression><![CDATA[http://127.0.0.1:9/\(id)/imp]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[\(base)/clip.mp4]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad>
            """
        }
        func wrapper(_ id: String, _ sequence: Int, _ target: String, fallback: String) -> String {
            """
            <Ad id="\(id)" sequence="\(sequence)"><Wrapper \(fallback)><AdSystem>w</AdSystem>
            <VASTAdTagURI><![CDATA[\(base)/\(target)]]></VASTAdTagURI>
            <Error><![CDATA[http://127.0.0.1:9/\(id)/error?code=[ERRORCODE]]]></Error></Wrapper></Ad>
            """
        }
        let buffet = #"<Ad id="standalone"><Wrapper><AdSystem>w</AdSystem><VASTAdTagURI><![CDATA[\#(base)/buffet.xml]]></VASTAdTagURI></Wrapper></Ad>"#
        let folder = try TemporaryFolder()
        let closed = try folder.write("pod.xml", """
            <VAST version="4.2">\(inLine("one", 1))\(wrapper("two", 2, "empty.xml", fallback: #"fallbackOnNoAd="false""#))\(inLine("three", 3))\(buffet)</VAST>
            """)
        let run = try await kit.run(cli: ["--vast", closed, "--dry-run"])
        #expect(run.summary.outcome == .completed, "\(run.errors)")
        #expect(run.ads.map { "\($0.ad.id ?? "?") \($0.outcome)" } == ["one completed", "two failed", "three completed"])
        #expect(run.beacons(containing: "/two/error").map(\.url) == ["http://127.0.0.1:9/two/error?code=303"])
        #expect(kit.tagRequests.withLock { $0 } == ["\(base)/empty.xml"], "the buffet ad is not requested for that place")

        // Without the attribute, the same failure takes the buffet ad, resolved only then.
        let open = try folder.write("open.xml", """
            <VAST version="4.2">\(inLine("one", 1))\(wrapper("two", 2, "empty2.xml", fallback: ""))\(inLine("three", 3))\(buffet)</VAST>
            """)
        let replaced = try await kit.run(cli: ["--vast", open, "--dry-run"])
        #expect(replaced.ads.map { "\($0.ad.id ?? "?") \($0.outcome)" } == ["one completed", "two failed", "buffet completed", "three completed"])
        #expect(replaced.events(.impression).map(\.clock) == [.zero, .seconds(5), .seconds(10)])
        #expect(kit.tagRequests.withLock { $0 }.dropFirst() == ["\(base)/empty2.xml", "\(base)/buffet.xml"])
    }

    /// A tag can hold thousands of pod ads, and each ad's media is opened before the pod plays: vplay plays at most
    /// 16, and cuts the rest with 206 and a warning.
    @Test func aPodOfTwentyAds_playsSixteen_andCutsTheRestWith206() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let ads = (1...20).map { index in
            """
            <Ad id="a\(index)" sequence="\(index)"><InLine><AdSystem>x</AdSystem><AdTitle>t</AdTitle>
            <Impression><![CDATA[http://127.0.0.1:9/imp/\(index)]]></Impression><Error><![CDATA[http://127.0.0.1:9/err/\(index)?c=[ERRORCODE]]]></Error>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[\(clip)]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad>
            """
        }
        let folder = try TemporaryFolder()
        let tag = try folder.write("big.xml", "<VAST version=\"4.2\">" + ads.joined() + "</VAST>")
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run"])
        #expect(run.summary.outcome == .completed, "\(run.errors)")
        #expect(run.events(.impression).count == 16 && run.events(.impression).last?.clock == .seconds(75))
        #expect(run.outcomes == Array(repeating: .completed, count: 16) + Array(repeating: .cut, count: 4))
        #expect(run.beacons("error").map(\.url) == (17...20).map { "http://127.0.0.1:9/err/\($0)?c=206" })
        #expect(run.warnings.contains { $0.contains("vplay plays at most 16") }, "\(run.warnings)")
    }

    /// Issue 37, item 10: each ad's media is opened before the pod plays, and with the full media deadline (8 s)
    /// each; opened one after another, sixteen silent media servers kept the pod from starting for 128 s, and
    /// Ctrl-C waited it out. The places are opened together: all sixteen are asked for before any deadline could
    /// pass, and cancelling (a signal) ends the session at once, interrupted, with no ad's Error URL told anything.
    /// The live environment (FFmpeg, HTTP) against one loopback server that never answers.
    @Test func aPodOfSixteenSilentMediaServers_asksForEveryMediaAtOnce_andAStopEndsItInterrupted() async throws {
        let asked = Locked<Set<String>>([])
        // How many connections were open when each request arrived, counted on the server's own thread: opened one
        // after another, never more than one (each gave up at its deadline before the next was asked for); a test
        // task that samples the count later can be held by a busy machine past every deadline.
        let mostOpen = Locked(0)
        let serving = Locked<ScriptedHTTPServer?>(nil)
        let server = try ScriptedHTTPServer { target in
            asked.withLock { _ = $0.insert(target) }
            let open = serving.withLock { $0 }?.openConnections ?? 0
            mostOpen.withLock { $0 = max($0, open) }
            return .stall(for: .seconds(900))
        }
        serving.withLock { $0 = server }
        defer { server.stop() }
        let ads = (1...16).map { index in
            """
            <Ad id="a\(index)" sequence="\(index)"><InLine><AdSystem>x</AdSystem><AdTitle>t</AdTitle>
            <Impression><![CDATA[http://127.0.0.1:9/imp/\(index)]]></Impression><Error><![CDATA[http://127.0.0.1:9/err/\(index)?c=[ERRORCODE]]]></Error>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[\(server.baseURL)/m\(index).mp4]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad>
            """
        }
        let folder = try TemporaryFolder()
        let tag = try folder.write("silent-pod.xml", "<VAST version=\"4.2\">" + ads.joined() + "</VAST>")
        let session = Task { try await LiveSession.run(cli: ["--vast", tag, "--dry-run"]) }
        // Readiness: every media request has arrived (none is answered). One after another, the second would come
        // only after the first's 8 s deadline, each failing with 402 first.
        while asked.withLock({ $0.count }) < 16 { try await Task.sleep(for: .milliseconds(20)) }
        session.cancel()
        let run = try await session.value
        #expect(asked.withLock { $0 } == Set((1...16).map { "/m\($0).mp4" }))
        #expect(mostOpen.withLock { $0 } > 1, "media requests waiting at once: at most \(mostOpen.withLock { $0 })")
        #expect(run.summary.outcome == .interrupted, "\(run.summary.outcome)")
        #expect(run.errors.isEmpty, "no ad failed: \(run.errors)")
        #expect(run.beacons("error").isEmpty && run.events(.impression).isEmpty)
    }

    /// An ad whose media ends early fails where its data ends (its error to its own Error URLs, with that playhead);
    /// the next ad of the pod plays. Real FFmpeg on the cut file, on the virtual clock.
    @Test func aMediaFailureMidAd_endsThatAdOnly() async throws {
        let folder = try TemporaryFolder()
        let whole = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-5s-video-only.mp4")))
        let cut = try folder.write("cut.mp4", whole.prefix(whole.count / 2))
        func ad(_ index: Int, _ media: String) -> String {
            """
            <Ad id="a\(index)" sequence="\(index)"><InLine><AdSystem>x</AdSystem><AdTitle>t</AdTitle>
            <Impression><![CDATA[http://127.0.0.1:9/imp/\(index)]]></Impression><Error><![CDATA[http://127.0.0.1:9/err/\(index)?c=[ERRORCODE]&at=[ADPLAYHEAD]]]></Error>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[\(media)]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad>
            """
        }
        let clip = Repo.media("clip-5s-video-only.mp4")
        let tag = try folder.write("pod.xml", "<VAST version=\"4.2\">" + ad(1, clip) + ad(2, cut) + ad(3, clip) + "</VAST>")
        var kit = kit
        kit.realMedia = true
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--reward", "coins:1"])
        #expect(run.summary.outcome == .completed, "\(run.errors)")
        let error = try #require(run.events(.error).first)
        #expect(error.ad?.index == 2)
        #expect(error.playhead > .zero && error.playhead < .seconds(5), "\(error)")
        let fired = run.beacons("error").map(\.url)
        #expect(fired.count == 1 && fired[0].hasPrefix("http://127.0.0.1:9/err/2?c=405&at="), "\(fired)")
        #expect(run.outcomes == [.completed, .failed, .completed])
        #expect(run.events(.complete).map { $0.ad?.index } == [1, 3])
        #expect(run.events(.impression).map(\.clock) == [.zero, .seconds(5), .seconds(5) + error.playhead], "ad 3 starts where ad 2 stopped")
        #expect(run.events(.rewardForfeited).count == 1 && run.events(.rewarded).isEmpty, "a failed ad forfeits the pod's reward")
    }
}
