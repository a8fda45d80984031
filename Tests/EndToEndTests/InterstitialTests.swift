import Foundation
import Synchronization
import Testing
import TestSupport

/// Issue 42, item 3 end to end: the built binary plays an HLS content playlist whose interstitials are served over
/// loopback with their asset list — a pre-roll `X-ASSET-URI`, a mid-roll `X-ASSET-LIST` of two assets of which one
/// 404s, stopped by its `X-PLAYOUT-LIMIT` inside the other — each asset a real HLS stream (made by ffmpeg at test
/// time) demuxed and decoded by FFmpeg, and their SVTA2053 tracking fired over HTTP with its macros expanded.
@Suite(.hangLimit) struct InterstitialTests {
    static func slot(_ name: String, base: String) -> String {
        let tracking = ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"].map {
            #"{"type":"\#($0)","urls":["\#(base)/\#(name)/\#($0)?ap=[ADPLAYHEAD]&cp=[CONTENTPLAYHEAD]&bp=[BREAKPOSITION]"]}"#
        }
        return #"{"type":"linear","start":0,"duration":10,"tracking":[\#(tracking.joined(separator: ","))]}"#
    }

    @Test func aStreamOverLoopback_playsItsInterstitialsAsBreaks_andFiresTheirSignalling() async throws {
        let hls = try ScriptedHTTPServer(files: try await HLSFixture.root())
        defer { hls.stop() }
        let documents = Mutex([String: String]())
        let server = try ScriptedHTTPServer { target in
            let path = String(target.split(separator: "?", maxSplits: 1)[0])
            if let body = documents.withLock({ $0[path] }) { return .body(Data(body.utf8), contentType: path.hasSuffix(".json") ? "application/json" : "application/vnd.apple.mpegurl") }
            return .status(204)
        }
        defer { server.stop() }
        let base = server.baseURL
        let pre = Data(#"{"payload":[\#(Self.slot("pre", base: base))]}"#.utf8).base64EncodedString()
        let pod = #"{"version":1,"type":"pod","payload":[{"duration":20,"tracking":[{"type":"podStart","urls":["\#(base)/mid/podStart?bp=[BREAKPOSITION]"]}],"slots":[\#(Self.slot("gone", base: base)),\#(Self.slot("lo", base: base))]}]}"#
        documents.withLock {
            $0["/list.json"] = #"{"ASSETS":[{"URI":"\#(hls.baseURL)/gone/index.m3u8","DURATION":10},{"URI":"\#(hls.baseURL)/lo/index.m3u8","DURATION":10}],"X-AD-CREATIVE-SIGNALING":\#(pod)}"#
            $0["/content.m3u8"] = ([
                "#EXTM3U", "#EXT-X-TARGETDURATION:6", "#EXT-X-PLAYLIST-TYPE:VOD", "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z",
                #"#EXT-X-DATERANGE:ID="pre",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:00Z",CUE="PRE",X-ASSET-URI="\#(hls.baseURL)/hi/index.m3u8",X-RESUME-OFFSET=0,X-AD-CREATIVE-SIGNALING="\#(pre)""#,
                #"#EXT-X-DATERANGE:ID="mid",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:12Z",X-ASSET-LIST="list.json",X-RESUME-OFFSET=0,X-PLAYOUT-LIMIT=6"#,
            ] + (0..<5).flatMap { ["#EXTINF:6.0,", "c\($0).ts"] } + ["#EXT-X-ENDLIST", ""]).joined(separator: "\n")
        }
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("beacons.jsonl").path
        let run = try await vplay(["--interstitials", "\(base)/content.m3u8", "--json", "--now", "2026-01-01T00:00:00Z", "--beacons", log])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = folder.url.appendingPathComponent("run.jsonl").path
        try run.stdout.write(toFile: lines, atomically: true, encoding: .utf8)
        let errors = try await JSONSchemaCheck.validate([.init(lines, schema: "events.schema.json", form: .jsonLines)])
        #expect(errors.isEmpty, "\(errors)")
        let beacons = run.lines.filter { $0["kind"] as? String == "beacon" }
        #expect(Set(beacons.map { $0["status"] as? Int }) == [204], "\(beacons.prefix(2))")
        let targets = server.requests().map(\.target)
        // Each asset's quartiles on its own playhead, the content's time and the break's position in every URL.
        #expect(targets.contains("/pre/firstQuartile?ap=00%3A00%3A02.500&cp=00%3A00%3A00.000&bp=1"), "\(targets)")
        #expect(targets.contains("/lo/midpoint?ap=00%3A00%3A05.000&cp=00%3A00%3A12.000&bp=2"), "\(targets)")
        #expect(targets.contains("/mid/podStart?bp=2"), "\(targets)")
        #expect(!targets.contains { $0.hasPrefix("/gone/") }, "the asset that 404s fires none of its slot's tracking")
        // The pre-roll completes; the list's asset is stopped 6 s in by the playout limit: its midpoint (5 s) fired,
        // its thirdQuartile (7.5 s) and complete never did.
        #expect(targets.filter { $0.contains("/complete?") } == ["/pre/complete?ap=00%3A00%3A10.000&cp=00%3A00%3A00.000&bp=1"], "\(targets)")
        #expect(!targets.contains { $0.hasPrefix("/lo/thirdQuartile") }, "\(targets)")
        #expect(hls.requests().map(\.target).contains("/gone/index.m3u8"), "the failing asset was asked for")
        let summary = try #require(run.lines.last)
        let breaks = try #require((summary["vmap"] as? [String: Any])?["breaks"] as? [[String: Any]])
        #expect(breaks.map { $0["outcome"] as? String } == ["played", "played"], "\(breaks)")
        #expect(breaks.map { $0["source"] as? String } == ["assetURI", "assetList"] && breaks.map { $0["breakId"] as? String } == ["pre", "mid"])
        #expect(breaks.map { $0["startClock"] as? Double } == [0, 22], "\(breaks)")
        #expect(breaks.map { $0["endClock"] as? Double } == [10, 28], "\(breaks)")
        let ads = run.lines.filter { $0["kind"] as? String == "ad" }.map { $0["outcome"] as? String }
        // The list's pod: the asset that 404s, then the one the limit stopped (the pre-roll is a single ad, no line).
        #expect(ads == ["failed", "stopped"], "\(ads)")
        // The run's own beacon log, audited against the stream: each interstitial judged as a break, every URL seen
        // as often as expected. The virtual clock sent each ad's beacons at once, so (rightly) only their timing fails.
        let audit = try await vplay(["audit", "--interstitials", "\(base)/content.m3u8", "--beacons", log])
        #expect(audit.status == 1, "\(audit.stdout)")
        #expect(audit.stdout.contains("2 of 2 breaks reached") && audit.stdout.contains("breakStart seen 1"), "\(audit.stdout)")
        let failures = audit.stdout.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("FAIL") }
        #expect(!failures.isEmpty && failures.allSatisfy { $0.contains("timing.") }, "\(failures)")
        #expect(!audit.stdout.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("missing") }, "\(audit.stdout)")
        // inspect resolves the same breaks, the list fetched, nothing played.
        let inspected = try await vplay(["inspect", "--interstitials", "\(base)/content.m3u8"])
        #expect(inspected.status == 0 || inspected.status == 3, "\(inspected.stderr)")
        #expect(inspected.stdout.contains("/lo/index.m3u8") && inspected.stdout.contains("list.json"), "\(inspected.stdout)")
    }

    /// The bundled demo (media/sgai): two interstitials of the 5 s clip as a local HLS stream, decoded by FFmpeg, their
    /// SVTA2053 tracking to the embedded sink, the mid-roll stopped 3 s in by its playout limit.
    @Test func theDemoToTheSink_receivesEveryBeaconItSends() async throws {
        let run = try await vplay(["--interstitials", "media/sgai/content.m3u8", "--sink"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("sink: 12 received, 12 of 12 sent matched"), "\(run.stdout)")
        #expect(run.stdout.contains("close (playout limit)") && run.stdout.contains("complete  at clock 68.000 s"), "\(run.stdout)")
        #expect(!run.stdout.contains("/sgai/mid/thirdQuartile"), "stopped before its third quartile")
    }

    @Test func aPlaylistThatIsNotOne_exits3_withOneLineOnStderr() async throws {
        let server = try ScriptedHTTPServer { _ in .body(Data(#"{"ASSETS":[]}"#.utf8), contentType: "application/json") }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let path = try folder.write("content.m3u8", "#EXTM3U\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n#EXT-X-DATERANGE:ID=\"x\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:03Z\"\n#EXTINF:6,\nc.ts\n")
        let run = try await vplay(["--interstitials", path, "--dry-run"])
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr == "vplay: error: VMAP 1002: the content playlist: interstitial \"x\" must have exactly one of X-ASSET-URI and X-ASSET-LIST\n", "\(run.stderr)")
        // An asset list on a host the policy refuses is never asked for: its break fails with 1008, the content plays.
        let listed = try folder.write("listed.m3u8", "#EXTM3U\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n#EXT-X-DATERANGE:ID=\"x\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:03Z\",X-ASSET-LIST=\"\(server.baseURL)/list.json\"\n#EXTINF:6,\nc.ts\n")
        let refused = try await vplay(["--interstitials", listed, "--deny-loopback", "--json"])
        #expect(refused.status == 3 && refused.stderr.contains("VMAP break 1 (00:00:03.000) played no ad: 1008"), "\(refused.stderr)")
        #expect(server.requests().isEmpty, "\(server.requests().map(\.target))")
        let fleet = try await vplay(["fleet", "--interstitials", path])
        #expect(fleet.status == 2 && fleet.stderr.contains("fleet does not take an interstitial stream yet"), "\(fleet.stderr)")
    }

    /// The DASH form: a manifest over loopback whose EventStream signals a pod stitched into the stream; its
    /// tracking fires to the server at the signalled times.
    @Test func aDASHManifestsSignalling_overLoopback_firesAtTheSignalledTimes() async throws {
        let manifest = Mutex("")
        let server = try ScriptedHTTPServer { target in
            target == "/manifest.mpd" ? .body(Data(manifest.withLock { $0 }.utf8), contentType: "application/dash+xml") : .status(204)
        }
        defer { server.stop() }
        let base = server.baseURL
        let pod = #"{"version":1,"type":"pod","payload":[{"duration":10,"tracking":[{"type":"podStart","urls":["\#(base)/pod/start"]}],"slots":[\#(Self.slot("a", base: base))]}]}"#
        manifest.withLock {
            $0 = """
                <MPD xmlns="urn:mpeg:dash:schema:mpd:2011" type="static" mediaPresentationDuration="PT30S">
                <Period start="PT0S"><EventStream schemeIdUri="urn:svta:advertising-wg:ad-creative-signaling" timescale="1">
                <Event presentationTime="6" duration="10" id="mid"><![CDATA[\(pod)]]></Event></EventStream></Period></MPD>
                """
        }
        let run = try await vplay(["--tracking-doc", "\(base)/manifest.mpd", "--json", "--now", "2026-01-01T00:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let fired = run.lines.filter { $0["kind"] as? String == "beacon" }.compactMap { line -> String? in
            guard let event = line["event"] as? String, let clock = line["clock"] as? Double, line["status"] as? Int == 204 else { return nil }
            return "\(event)@\(clock)"
        }
        #expect(fired.sorted() == ["breakStart@6.0", "complete@16.0", "firstQuartile@8.5", "impression@6.0", "midpoint@11.0", "start@6.0", "thirdQuartile@13.5"], "\(fired)")
        #expect(server.requests().map(\.target).contains("/a/midpoint?ap=00%3A00%3A05.000&cp=00%3A00%3A11.000&bp=2"))
    }
}
