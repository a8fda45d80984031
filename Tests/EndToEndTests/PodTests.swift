import Foundation
import Testing
import TestSupport

/// Issue 17, end to end on the repo's pod tags (media/pods, written by make-pods.py), for what only the binary shows:
/// every ad's beacons sent over loopback HTTP to vplay's embedded sink and received (`--sink`, one session and a
/// fleet), and the report and timeline files of a pod run. How pods play (order, clocks, the buffet, limits, per-ad
/// macros, actions and the reward, expectations naming an ad, `inspect`) is `PodBehaviourTests` and
/// `PodWorkflowBehaviourTests`, in process.
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

    /// Only the binary with its embedded sink shows every ad's beacons received over loopback HTTP.
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

    /// Only a process shows the files it writes: the report's per-ad rows, the timeline's ad boundaries, the text.
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

    /// Only the binary with its embedded sink shows a fleet's pod beacons received as the oracle expects them.
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
}
