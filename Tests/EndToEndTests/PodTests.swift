import Foundation
import Testing
import TestSupport

/// Issue 17, end to end on the repo's pod tags (media/pods, written by make-pods.py): every ad of a pod plays in
/// sequence order on one session clock, a failed ad is replaced from the buffet (or skipped), per-ad macros, user
/// actions and the reward across the pod, the break's limits, per-ad reports and expectations. Runs with `--sink`
/// send every beacon over loopback HTTP to vplay's embedded sink.
@Suite(.hangLimit) struct PodTests {
    /// A run's JSON lines by kind.
    struct Run {
        var status: Int32
        var lines: [[String: Any]]
        var stderr: String

        func kind(_ kind: String) -> [[String: Any]] { lines.filter { $0["kind"] as? String == kind } }
        func events(_ name: String) -> [[String: Any]] { kind("event").filter { $0["name"] as? String == name } }
        /// Final beacon records (one per beacon fired) whose URL contains `path`.
        func beacons(_ path: String) -> [[String: Any]] {
            kind("beacon").filter { ($0["url"] as? String)?.contains(path) == true && $0["attempt"] as? Int == 1 && $0["finalAttempt"] as? Bool == true }
        }
        var ads: [[String: Any]] { kind("ad") }
        var summary: [String: Any] { kind("summary").last ?? [:] }
    }

    func play(_ arguments: [String]) async throws -> Run {
        let run = try await vplay(arguments + ["--json"])
        return Run(status: run.status, lines: run.lines, stderr: run.stderr)
    }

    static func ad(_ line: [String: Any]) -> (index: Int?, id: String?, sequence: Int?) {
        let ad = line["ad"] as? [String: Any]
        return (ad?["index"] as? Int, ad?["id"] as? String, ad?["sequence"] as? Int)
    }

    @Test func aPodThroughAWrapper_playsEveryAd_eachAdsTrackingOnce_theWrappersOncePerAd() async throws {
        let run = try await play(["--vast", "media/pods/pod-wrapper.xml", "--map", "http://pods.vplay.test/=media", "--sink"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        let impressions = run.events("impression")
        #expect(impressions.map { Self.ad($0).id } == ["pod-ad-1", "pod-ad-2", "pod-ad-3"])
        #expect(impressions.map { Self.ad($0).index } == [1, 2, 3] && impressions.map { Self.ad($0).sequence } == [1, 2, 3])
        #expect(impressions.map { $0["clock"] as? Double } == [0, 5, 10], "one after the other on one session clock")
        let completes = run.events("complete")
        #expect(completes.map { $0["clock"] as? Double } == [5, 10, 15] && completes.allSatisfy { $0["playhead"] as? Double == 5 })
        for (index, id) in ["pod-ad-1", "pod-ad-2", "pod-ad-3"].enumerated() {
            for event in ["impression", "creativeView", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete", "progress-2s"] {
                let fired = run.beacons("/pod/\(id)/\(event)?")
                #expect(fired.count == 1, "\(id) \(event) fired \(fired.count) times")
                #expect(fired.first?["ad"] as? Int == index + 1)
            }
        }
        // The wrapper's impression and tracking fire again for each ad, with that ad's [PODSEQUENCE] and [ADCOUNT].
        let wrapperImpressions = run.beacons("/wrapper/impression").compactMap { $0["url"] as? String }.sorted()
        #expect(wrapperImpressions == (1...3).map { "http://127.0.0.1:8089/wrapper/impression?seq=\($0)&count=\($0)" })
        #expect(run.beacons("/wrapper/start").count == 3 && run.beacons("/wrapper/complete").count == 3)
        #expect(run.beacons("/error").isEmpty)
        let sink = try #require(run.kind("reconciliation").first)
        #expect(sink["matched"] as? Int == sink["sent"] as? Int && sink["received"] as? Int == sink["sent"] as? Int && (sink["sent"] as? Int ?? 0) == 34,
                "\(sink)")
        #expect(run.ads.map { $0["outcome"] as? String } == ["completed", "completed", "completed"])
        let rows = try #require(run.summary["ads"] as? [[String: Any]])
        // 11 beacons an ad (4 of them the wrapper's), and the last ad's closeLinear.
        #expect(rows.map { $0["beacons"] as? Int } == [11, 11, 12] && rows.map { $0["played"] as? Double } == [5, 5, 5])
    }

    @Test func expectations_canNameAnAd() async throws {
        let folder = try TemporaryFolder()
        let good = try folder.write("good.json", """
            {"events": [{"name": "impression", "ad": 2, "clock": 5, "playhead": 0}, {"name": "complete", "ad": 3, "count": 1}],
             "beacons": [{"url": "*/pod/pod-ad-2/impression*", "ad": 2}, {"event": "impression", "ad": 3, "count": 1}]}
            """)
        let pass = try await vplay(["--vast", "media/pods/pod.xml", "--dry-run", "--expect", good])
        #expect(pass.status == 0, "\(pass.stdout)")
        let bad = try folder.write("bad.json", """
            {"events": [{"name": "impression", "ad": 3, "clock": 5}], "beacons": [{"url": "*/pod/pod-ad-2/impression*", "ad": 1}]}
            """)
        let fail = try await vplay(["--vast", "media/pods/pod.xml", "--dry-run", "--expect", bad])
        #expect(fail.status == 1)
        #expect(fail.stdout.contains("impression in ad 3 at clock 5.000 s ±0.001 s: was at clock 10.000 s"), "\(fail.stdout)")
        #expect(fail.stdout.contains("beacon matching */pod/pod-ad-2/impression* in ad 1 fires once: fired never"), "\(fail.stdout)")
        // A golden file of a pod run records each ad's beacons apart, and passes against the same run.
        let golden = folder.url.appendingPathComponent("golden.json").path
        let recorded = try await vplay(["--vast", "media/pods/pod-wrapper.xml", "--map", "http://pods.vplay.test/=media", "--dry-run", "--record-expectations", golden])
        #expect(recorded.status == 0)
        let text = try String(contentsOfFile: golden, encoding: .utf8)
        #expect(text.contains("\"ad\" : 3") || text.contains("\"ad\":3"), "\(text.prefix(400))")
        let again = try await vplay(["--vast", "media/pods/pod-wrapper.xml", "--map", "http://pods.vplay.test/=media", "--dry-run", "--expect", golden])
        #expect(again.status == 0, "\(again.stdout.suffix(800))")
    }

    @Test func reports_showEachAd_andTheTimelineItsBoundaries() async throws {
        let folder = try TemporaryFolder()
        let report = folder.url.appendingPathComponent("report.json").path, timeline = folder.url.appendingPathComponent("t.svg").path
        let run = try await vplay(["--vast", "media/pods/pod-failing.xml", "--dry-run", "--report", report, "--timeline", timeline])
        #expect(run.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let ads = try #require(document["ads"] as? [[String: Any]])
        #expect(ads.map { $0["outcome"] as? String } == ["completed", "failed", "completed", "completed"])
        #expect(ads[1]["code"] as? Int == 401 && ads[2]["substitute"] as? Bool == true)
        let svg = try String(contentsOfFile: timeline, encoding: .utf8)
        for label in ["ad 1<", "ad 2: failed 401<", "ad 2 (substitute)<", "ad 3<"] { #expect(svg.contains(label), "\(label)") }
        #expect(run.stdout.contains("pod       3 of 3 place(s) played"), "\(run.stdout.suffix(600))")
        #expect(run.stdout.contains("ad 2 (id pod-standalone, stand-alone, substitute): completed, 5.000 s played"))
    }

    @Test func inspect_listsThePod() async throws {
        let run = try await vplay(["inspect", "--vast", "media/pods/pod-failing.xml"])
        #expect(run.stdout.contains("pod: 3 places"), "\(run.stdout)")
        #expect(run.stdout.contains("ad 2 (id pod-ad-2, sequence 2): 401"), "\(run.stdout)")
        #expect(run.stdout.contains("ad 2 (id pod-standalone, stand-alone, substitute): plays"), "\(run.stdout)")
        let json = try await vplay(["inspect", "--vast", "media/pods/pod.xml", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let pod = try #require(object["pod"] as? [[String: Any]])
        #expect(pod.count == 3 && pod.allSatisfy { $0["plays"] as? Bool == true })
    }

    @Test func aFleetOfAPod_countsEachAdsBeacons_asTheOracleSays_andTheSinkReceivesThem() async throws {
        let run = try await vplay(["fleet", "--vast", "media/pods/pod-wrapper.xml", "--map", "http://pods.vplay.test/=media", "--sessions", "100",
                                   "--sink", "--json", "--mix", "complete:2,background:1,pause:1,click:1,skip:2,close:2"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let checks = try #require(report["checks"] as? [String: Any])
        #expect(checks["sentAsExpected"] as? Bool == true && checks["receivedAsSent"] as? Bool == true, "\(checks)")
        let beacons = try #require((report["population"] as? [String: Any])?["beacons"] as? [[String: Any]])
        let wrapperImpressions = beacons.filter { ($0["template"] as? String)?.contains("/wrapper/impression") == true }
        #expect(wrapperImpressions.map { $0["ad"] as? Int } == [1, 2, 3], "one row per ad")
        #expect(wrapperImpressions.first?["expected"] as? Int == 100, "every session shows ad 1")
        let counts = wrapperImpressions.compactMap { $0["sent"] as? Int }
        #expect(counts.count == 3 && counts[0] > counts[1] && counts[1] > 0, "closes end pods early: \(counts)")
        let skips = beacons.filter { ($0["template"] as? String)?.contains("/skip?") == true }
        #expect(skips.map { $0["ad"] as? Int } == [1, 2, 3] && (skips[1]["sent"] as? Int ?? 0) > 0 && skips[0]["sent"] as? Int == 0,
                "only ad 2 is skippable")
    }

    /// A pod ad whose wrapper says fallbackOnNoAd="false" and fails is not replaced: the buffet ad is never even
    /// requested, and the pod moves on. Another failing place still takes the buffet ad.
    @Test func fallbackOnNoAdFalse_keepsTheBuffetOutOfThatPlace() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let server = try ScriptedHTTPServer { target in
            switch target {
            case "/clip.mp4": return .file(clip)
            case "/empty.xml", "/empty2.xml": return .body(Data("<VAST version=\"4.2\"/>".utf8), contentType: "application/xml")
            case "/buffet.xml":
                return .body(Data("""
                    <VAST version="4.2"><Ad id="buffet"><InLine><AdSystem>b</AdSystem><AdTitle>b</AdTitle>
                    <Impression><![CDATA[http://127.0.0.1:9/buffet/imp]]></Impression>
                    <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
                    <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile>
                    </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
                    """.utf8), contentType: "application/xml")
            default: return .status(204)
            }
        }
        defer { server.stop() }
        func inLine(_ id: String, _ sequence: Int) -> String {
            """
            <Ad id="\(id)" sequence="\(sequence)"><InLine><AdSystem>p</AdSystem><AdTitle>\(id)</AdTitle>
            <Impression><![CDATA[http://127.0.0.1:9/\(id)/imp]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[\(server.baseURL)/clip.mp4]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad>
            """
        }
        func wrapper(_ id: String, _ sequence: Int, _ target: String, fallback: String) -> String {
            """
            <Ad id="\(id)" sequence="\(sequence)"><Wrapper \(fallback)><AdSystem>w</AdSystem>
            <VASTAdTagURI><![CDATA[\(server.baseURL)/\(target)]]></VASTAdTagURI>
            <Error><![CDATA[http://127.0.0.1:9/\(id)/error?code=[ERRORCODE]]]></Error></Wrapper></Ad>
            """
        }
        let folder = try TemporaryFolder()
        let tag = try folder.write("pod.xml", """
            <VAST version="4.2">\(inLine("one", 1))\(wrapper("two", 2, "empty.xml", fallback: #"fallbackOnNoAd="false""#))\(inLine("three", 3))
            <Ad id="standalone"><Wrapper><AdSystem>w</AdSystem><VASTAdTagURI><![CDATA[\(server.baseURL)/buffet.xml]]></VASTAdTagURI></Wrapper></Ad></VAST>
            """)
        let run = try await play(["--vast", tag, "--dry-run"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        #expect(run.ads.map { "\(Self.ad($0).id ?? "?") \($0["outcome"] as? String ?? "?")" } == ["one completed", "two failed", "three completed"])
        #expect(run.beacons("/two/error").first?["url"] as? String == "http://127.0.0.1:9/two/error?code=303")
        #expect(!server.requests().map(\.target).contains("/buffet.xml"), "the buffet ad is not requested for that place")

        // Without the attribute, the same failure takes the buffet ad, resolved only then.
        let open = try folder.write("open.xml", """
            <VAST version="4.2">\(inLine("one", 1))\(wrapper("two", 2, "empty2.xml", fallback: ""))\(inLine("three", 3))
            <Ad id="standalone"><Wrapper><AdSystem>w</AdSystem><VASTAdTagURI><![CDATA[\(server.baseURL)/buffet.xml]]></VASTAdTagURI></Wrapper></Ad></VAST>
            """)
        let replaced = try await play(["--vast", open, "--dry-run"])
        #expect(replaced.ads.map { "\(Self.ad($0).id ?? "?") \($0["outcome"] as? String ?? "?")" } == ["one completed", "two failed", "buffet completed", "three completed"])
        let targets = server.requests().map(\.target)
        #expect(targets.firstIndex(of: "/empty2.xml")! < targets.firstIndex(of: "/buffet.xml")!)
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
        let run = try await play(["--vast", tag, "--dry-run"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        #expect(run.events("impression").count == 16)
        #expect(run.ads.map { $0["outcome"] as? String } == Array(repeating: "completed", count: 16) + Array(repeating: "cut", count: 4))
        #expect(run.beacons("/err/").compactMap { $0["url"] as? String } == (17...20).map { "http://127.0.0.1:9/err/\($0)?c=206" })
        #expect(run.kind("warning").contains { ($0["message"] as? String)?.contains("vplay plays at most 16") == true })
    }

    /// An ad whose media ends early fails where its data ends (its error to its own Error URLs, with that playhead);
    /// the next ad of the pod plays.
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
        let run = try await play(["--vast", tag, "--dry-run", "--reward", "coins:1"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        let error = try #require(run.events("error").first)
        #expect(Self.ad(error).index == 2)
        let stopped = try #require(error["playhead"] as? Double)
        #expect(stopped > 0 && stopped < 5)
        let fired = run.beacons("/err/").compactMap { $0["url"] as? String }
        #expect(fired.count == 1 && fired[0].hasPrefix("http://127.0.0.1:9/err/2?c=405&at="), "\(fired)")
        #expect(run.ads.map { $0["outcome"] as? String } == ["completed", "failed", "completed"])
        #expect(run.events("impression").count == 3 && run.events("close").count == 1)
        #expect(run.events("rewardForfeited").count == 1 && run.events("rewarded").isEmpty, "the pod's reward is lost with the failed ad")
        let third = try #require(run.events("impression").last)
        #expect(abs((third["clock"] as? Double ?? 0) - (5 + stopped)) < 0.0005, "ad 3 starts where ad 2 stopped")
    }
}
