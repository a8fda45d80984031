import Foundation
import FoundationXML
import Synchronization
import Testing
import TestSupport

/// Issue 41 end to end: the built binary plays a VMAP document served over loopback by a real HTTP server — an inline
/// pre-roll, a mid-roll from a relative `AdTagURI` (its macros expanded), a scheme-relative one that never answers
/// (1007), a post-roll — fires every break's and ad's tracking over HTTP to that server, and reports each break.
@Suite(.hangLimit) struct VMAPTests {
    static func ad(_ id: String, base: String) -> String {
        """
        <VAST version="4.1"><Ad id="\(id)"><InLine><AdSystem>s</AdSystem><AdTitle>\(id)</AdTitle>
        <Impression><![CDATA[\(base)/\(id)/impression?bp=[BREAKPOSITION]]]></Impression>
        <Creatives><Creative><Linear><Duration>00:00:05</Duration>
        <TrackingEvents><Tracking event="complete"><![CDATA[\(base)/\(id)/complete]]></Tracking></TrackingEvents>
        <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[\(base)/clip.mp4]]></MediaFile>
        </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
        """
    }

    static func adBreak(_ offset: String, _ name: String, _ source: String, base: String) -> String {
        """
        <vmap:AdBreak timeOffset="\(offset)" breakType="linear" breakId="\(name)"><vmap:AdSource>\(source)</vmap:AdSource>
        <vmap:TrackingEvents>
        <vmap:Tracking event="breakStart"><![CDATA[\(base)/\(name)/breakStart?bp=[BREAKPOSITION]]]></vmap:Tracking>
        <vmap:Tracking event="breakEnd"><![CDATA[\(base)/\(name)/breakEnd]]></vmap:Tracking>
        <vmap:Tracking event="error"><![CDATA[\(base)/\(name)/error?code=[ERROR_CODE]]]></vmap:Tracking>
        </vmap:TrackingEvents></vmap:AdBreak>
        """
    }

    @Test func aVMAPOverLoopback_playsEachBreakOnTheContentClock_andFiresEveryURL() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let documents = Mutex([String: String]())
        let server = try ScriptedHTTPServer { target in
            let path = String(target.split(separator: "?", maxSplits: 1)[0])
            if path == "/clip.mp4" { return .file(clip) }
            if path == "/slow.xml" { return .stall(for: .seconds(60)) }
            if let body = documents.withLock({ $0[path] }) { return .body(Data(body.utf8), contentType: "application/xml") }
            return .status(204)
        }
        defer { server.stop() }
        let base = server.baseURL, authority = base.replacingOccurrences(of: "http:", with: "")
        documents.withLock {
            $0["/mid.xml"] = Self.ad("mid", base: base)
            $0["/vmap.xml"] = """
                <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" version="1.0">
                \(Self.adBreak("start", "pre", "<vmap:VASTAdData>\(Self.ad("pre", base: base))</vmap:VASTAdData>", base: base))
                \(Self.adBreak("00:00:10.000", "mid", "<vmap:AdTagURI templateType=\"vast4\"><![CDATA[mid.xml?bp=[BREAKPOSITION]]]></vmap:AdTagURI>", base: base))
                \(Self.adBreak("50%", "slow", "<vmap:AdTagURI templateType=\"vast3\"><![CDATA[\(authority)/slow.xml]]></vmap:AdTagURI>", base: base))
                \(Self.adBreak("end", "post", "<vmap:VASTData>\(Self.ad("post", base: base))</vmap:VASTData>", base: base))
                </vmap:VMAP>
                """
        }
        let folder = try TemporaryFolder()
        let beaconLog = folder.url.appendingPathComponent("beacons.jsonl").path
        let junit = folder.url.appendingPathComponent("run.xml").path
        let run = try await vplay(["--vmap", "\(base)/vmap.xml", "--json", "--content-duration", "30", "--tag-timeouts", "1,1",
                                   "--now", "2026-01-01T00:00:00Z", "--beacons", beaconLog, "--junit", junit])
        // The slow break played no ad: exit 3, one line on stderr, after the whole schedule.
        #expect(run.status == 3, "\(run.stderr)")
        #expect(run.stderr.contains("VMAP break 3 (50%) played no ad: 1007"), "\(run.stderr)")
        let breaks = run.lines.filter { $0["kind"] as? String == "break" }
        #expect(breaks.map { $0["outcome"] as? String } == ["played", "played", "failed", "played"], "\(breaks)")
        // Content 0–10, 10–15 (the slow break fails at once), 15–30 between 5 s ads; the slow break's request waits
        // for the mid-roll before it to end (content 10), later than its prefetch lead (15 − 8).
        #expect(breaks.map { $0["startClock"] as? Double } == [0, 15, 25, 40])
        #expect(breaks.map { $0["requestedAt"] as? Double } == [0, 2, 10, 22])
        #expect(breaks[1]["tagURL"] as? String == "\(base)/mid.xml?bp=2")
        let impressions = run.lines.filter { $0["kind"] as? String == "event" && $0["name"] as? String == "impression" }
        #expect(impressions.map { $0["clock"] as? Double } == [0, 15, 40] && impressions.map { $0["break"] as? Int } == [1, 2, 4])
        // Every URL reached the server: each break's edges, the slow break's 1007, the ads' beacons with their position.
        let targets = Set(server.requests().map(\.target))
        #expect(targets.isSuperset(of: ["/vmap.xml", "/mid.xml?bp=2", "/slow.xml", "/pre/breakStart?bp=1", "/pre/breakEnd", "/pre/impression?bp=1",
                                        "/pre/complete", "/mid/breakStart?bp=2", "/mid/impression?bp=2", "/mid/breakEnd", "/slow/error?code=1007",
                                        "/post/breakStart?bp=3", "/post/impression?bp=3", "/post/complete", "/post/breakEnd"]), "\(targets.sorted())")
        #expect(!targets.contains { $0.hasPrefix("/slow/breakStart") })
        let summary = try #require(run.lines.last)
        let vmap = try #require(summary["vmap"] as? [String: Any])
        #expect(vmap["namespace"] as? String == "http://www.iab.net/vmap-1.0" && vmap["contentComplete"] as? Double == 40)
        #expect((summary["beacons"] as? [String: Any])?["failed"] as? Int == 0)
        let errors = try await JSONSchemaCheck.validate([.init(beaconLog, schema: "beacon-record.schema.json", form: .jsonLines)])
        #expect(errors.isEmpty, "\(errors)")
        // JUnit: a case a break, the slow one failed with its code; valid against the schema CI tools read.
        let xml = try Data(contentsOf: URL(fileURLWithPath: junit))
        let complaints = try await ExternalValidators.xmlSchema(xml, xsd: "junit.xsd")
        #expect(complaints.isEmpty, "\(complaints)")
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.contains("break 1 (start) plays") && text.contains("break 4 (end) plays"))
        #expect(text.contains("none did: 1007"), "\(text)")
    }

    @Test func aVMAPGivenToVast_isPlayedAsVMAP_andAWithheldContentCompleteKeepsThePostRoll() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let documents = Mutex([String: String]())
        let server = try ScriptedHTTPServer { target in
            let path = String(target.split(separator: "?", maxSplits: 1)[0])
            if path == "/clip.mp4" { return .file(clip) }
            if let body = documents.withLock({ $0[path] }) { return .body(Data(body.utf8), contentType: "application/xml") }
            return .status(204)
        }
        defer { server.stop() }
        let base = server.baseURL
        documents.withLock {
            $0["/post.xml"] = Self.ad("post", base: base)
            $0["/vmap.xml"] = """
                <VMAP xmlns="http://www.iab.net/videosuite/vmap" version="1.0.1">
                <AdBreak timeOffset="end" breakType="linear"><AdSource><AdTagURI templateType="vast3"><![CDATA[\(base)/post.xml]]></AdTagURI></AdSource></AdBreak>
                </VMAP>
                """
        }
        let run = try await vplay(["--vast", "\(base)/vmap.xml", "--json", "--content-duration", "20", "--content-script", "contentComplete@never"])
        #expect(run.status == 0, "\(run.stderr)")
        let breaks = run.lines.filter { $0["kind"] as? String == "break" }
        #expect(breaks.map { $0["outcome"] as? String } == ["withheld"] && breaks.first?["requestedAt"] as? Double == 12)
        let targets = server.requests().map(\.target)
        // The document once (told VMAP by its root), the post-roll's tag asked for, its ad never shown.
        #expect(targets.filter { $0 == "/vmap.xml" }.count == 1 && targets.contains("/post.xml"), "\(targets)")
        #expect(!targets.contains { $0.hasPrefix("/post/impression") })
        #expect(run.lines.contains { ($0["message"] as? String)?.contains("VPLAY-vmap-postroll-withheld") == true })
    }
}

/// `vplay inspect` of a VMAP document: the schedule, each break's own tracking and its ads' every URL, valid against
/// the published schema; a break whose ads would not play exits 3.
@Suite(.hangLimit) struct VMAPInspectTests {
    @Test func inspectingTheDemo_listsEachBreak_itsTracking_andItsAds() async throws {
        let run = try await vplay(["inspect", "--vmap", "media/vmap/demo.xml", "--json", "--no-media"])
        #expect(run.status == 0, "\(run.stderr)")
        let folder = try TemporaryFolder()
        let path = try folder.write("inspect.json", run.stdout)
        let errors = try await JSONSchemaCheck.validate([.init(path, schema: "inspect-vmap.schema.json")])
        #expect(errors.isEmpty, "\(errors)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let breaks = try #require((document["vmap"] as? [String: Any])?["breaks"] as? [[String: Any]])
        #expect(breaks.map { $0["timeOffset"] as? String } == ["start", "00:00:20.000", "end"])
        #expect(breaks.map { $0["contentTime"] as? Double } == [0, 20, 50])
        #expect(breaks.allSatisfy { ($0["tracking"] as? [[String: Any]])?.map { $0["event"] as? String } == ["breakStart", "breakEnd", "error"] })
        let adTracking = breaks.compactMap { (($0["ads"] as? [String: Any])?["tracking"] as? [[String: Any]])?.compactMap { $0["url"] as? String } }
        #expect(adTracking.count == 3 && adTracking.allSatisfy { $0.contains { $0.contains("/impression?ad=vmap-demo-") } })
    }

    @Test func aBreakThatWouldNotPlay_exits3_andSaysWhich() async throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("vmap.xml", """
            <vmap:VMAP xmlns:vmap="http://www.iab.net/vmap-1.0" version="1.0">
            <vmap:AdBreak timeOffset="start" breakType="linear"><vmap:AdSource><vmap:VASTAdData><VAST version="4.1"/></vmap:VASTAdData></vmap:AdSource></vmap:AdBreak>
            </vmap:VMAP>
            """)
        let run = try await vplay(["inspect", "--vast", path, "--no-media"])
        #expect(run.status == 3 && run.stderr.contains("VMAP break 1 (start) would play no ad: 303"), "\(run.stderr)")
        #expect(run.stdout.contains("break 1 (AdBreak 1, start"), "\(run.stdout)")
    }

    @Test func theTimeline_drawsTheContentBetweenBreaks_andOnePlayheadLineABreak() async throws {
        let folder = try TemporaryFolder()
        let svg = folder.url.appendingPathComponent("timeline.svg").path
        let run = try await vplay(["--vmap", "media/vmap/demo.xml", "--dry-run", "--timeline", svg, "--quiet"])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(text.contains("content 0–20 s") && text.contains("content 20–50 s"))
        #expect(text.contains("break 1 (start)") && text.contains("break 2 (00:00:20.000)") && text.contains("break 3 (end)"))
        #expect(text.components(separatedBy: "<polyline").count - 1 == 3)
    }
}

/// `vplay fleet --vmap`: each break's reach by the watch mix, each break's fleet to the embedded sink with every
/// beacon received as sent, the report valid against its schema.
@Suite(.hangLimit) struct VMAPFleetTests {
    @Test func aVMAPFleetToTheSink_reachesEachBreakByTheWatchMix_andReceivesWhatItSends() async throws {
        let folder = try TemporaryFolder()
        let report = folder.url.appendingPathComponent("fleet.json").path
        let junit = folder.url.appendingPathComponent("fleet.xml").path
        let run = try await vplay(["fleet", "--vmap", "media/vmap/demo.xml", "--sessions", "30", "--watch-mix", "end:2,15:1", "--sink",
                                   "--seed", "3", "--report", report, "--junit", junit, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let xml = try Data(contentsOf: URL(fileURLWithPath: junit))
        let complaints = try await ExternalValidators.xmlSchema(xml, xsd: "junit.xsd")
        #expect(complaints.isEmpty, "\(complaints)")
        #expect(String(decoding: xml, as: UTF8.self).contains("break 2 (00:00:20.000) plays"))
        let errors = try await JSONSchemaCheck.validate([.init(report, schema: "fleet-vmap.schema.json")])
        #expect(errors.isEmpty, "\(errors)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])
        let breaks = try #require(document["breaks"] as? [[String: Any]])
        let reach = breaks.compactMap { $0["reach"] as? Int }
        // Everyone sees the pre-roll; the mid-roll (content 20 s) and the post-roll only those who watch to the end.
        #expect(reach.count == 3 && reach[0] == 30 && reach[1] == reach[2] && reach[1] > 0 && reach[1] < 30, "\(reach)")
        for item in breaks {
            let rows = try #require(((item["report"] as? [String: Any])?["population"] as? [String: Any])?["beacons"] as? [[String: Any]])
            #expect(rows.allSatisfy { $0["sent"] as? Int == $0["expected"] as? Int && $0["received"] as? Int == $0["sent"] as? Int }, "\(rows)")
            #expect(rows.filter { $0["event"] as? String == "breakStart" }.map { $0["sent"] as? Int } == [item["reach"] as? Int])
        }
    }
}

/// `vplay fleet --vmap --shard K/N` and `vplay merge`: the shards' reports, merged, are the whole fleet's, break by
/// break; a merge missing a shard says so and exits 1 unless `--allow-partial`.
@Suite(.hangLimit) struct VMAPShardTests {
    static let fleet = ["fleet", "--vmap", "media/vmap/demo.xml", "--sessions", "40", "--watch-mix", "end:2,15:1", "--sink", "--seed", "5", "--quiet"]

    static func rows(_ path: String) throws -> [[String]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return try #require(document["breaks"] as? [[String: Any]]).map { item in
            let population = ((item["report"] as? [String: Any])?["population"] as? [String: Any]) ?? [:]
            let beacons = (population["beacons"] as? [[String: Any]]) ?? []
            return ["\(item["reach"] ?? "-")", (population["scenarios"] as? [String: Int] ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ",")]
                + beacons.map { "\($0["event"] ?? "") \($0["template"] ?? "") \($0["expected"] ?? "") \($0["sent"] ?? "") \($0["received"] ?? "")" }
        }
    }

    @Test func shardsMerged_areTheWholeFleet_breakByBreak() async throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        #expect(try await vplay(Self.fleet + ["--report", path("whole.json")]).status == 0)
        for shard in 0..<2 {
            let run = try await vplay(Self.fleet + ["--shard", "\(shard)/2", "--report", path("s\(shard).json")])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let merge = try await vplay(["merge", path("s0.json"), path("s1.json"), "--report", path("merged.json")])
        #expect(merge.status == 0, "\(merge.stderr)")
        #expect(merge.stdout.contains("shards 0, 1 of 2"), "\(merge.stdout.prefix(300))")
        let errors = try await JSONSchemaCheck.validate([.init(path("merged.json"), schema: "fleet-vmap.schema.json"),
                                                         .init(path("s0.json"), schema: "fleet-vmap.schema.json")])
        #expect(errors.isEmpty, "\(errors)")
        let whole = try Self.rows(path("whole.json")), merged = try Self.rows(path("merged.json")), first = try Self.rows(path("s0.json"))
        #expect(merged == whole)
        #expect(first.map { $0[0] } == whole.map { $0[0] }, "each shard reports the whole fleet's reach")
        #expect(first != whole, "a shard plays its share")

        let partial = try await vplay(["merge", path("s0.json")])
        #expect(partial.status == 1 && partial.stderr.contains("1 of 2 shards merged; missing: 1"), "\(partial.stderr)")
        #expect(try await vplay(["merge", path("s0.json"), "--allow-partial"]).status == 0)
        let twice = try await vplay(["merge", path("s0.json"), path("s0.json")])
        #expect(twice.status == 2 && twice.stderr.contains("shard 0 is given twice"), "\(twice.stderr)")
    }

    /// `--html` for a VMAP fleet found behind `--vast`, and for merged VMAP shards: a page each, with a part per break.
    @Test func anHTMLPage_isWrittenForAVMAPFleet_andForItsMergedShards() async throws {
        let folder = try TemporaryFolder()
        func path(_ name: String) -> String { folder.url.appendingPathComponent(name).path }
        let found = try await vplay(["fleet", "--vast", "media/vmap/demo.xml", "--sessions", "3", "--dry-run", "--html", path("fleet.html"),
                                     "--shard", "0/2", "--report", path("s0.json")])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(try String(contentsOfFile: path("fleet.html"), encoding: .utf8).components(separatedBy: "<article class=\"break\"").count == 4)
        #expect(try await vplay(["fleet", "--vmap", "media/vmap/demo.xml", "--sessions", "3", "--dry-run", "--shard", "1/2",
                                 "--report", path("s1.json")]).status == 0)
        let merged = try await vplay(["merge", path("s0.json"), path("s1.json"), "--html", path("merged.html")])
        #expect(merged.status == 0, "\(merged.stderr)")
        let page = try String(contentsOfFile: path("merged.html"), encoding: .utf8)
        #expect(page.contains("shards 0, 1 of 2") && page.contains(#"<span id="viewers">3</span>"#))
    }}

/// `vplay audit --vmap`: a capture of a VMAP session judged break by break, split by each break's own tracking.
@Suite(.hangLimit) struct VMAPAuditTests {
    /// The HAR a perfect player of the demo VMAP would capture: every beacon of a dry run, sent at its session time.
    static func perfectCapture(dropping drop: (String) -> Bool = { _ in false }) async throws -> (TemporaryFolder, String) {
        let run = try await vplay(["--vmap", "media/vmap/demo.xml", "--dry-run", "--json", "--now", "2026-01-01T00:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let start = 1_767_225_600_000.0
        let entries: [[String: Any]] = run.lines.filter { $0["kind"] as? String == "beacon" }.compactMap { beacon in
            guard let url = beacon["url"] as? String, let clock = beacon["clock"] as? Double, !drop(url) else { return nil }
            let date = Date(timeIntervalSince1970: (start + clock * 1000) / 1000)
            return ["startedDateTime": ISO8601DateFormatter.withFractions.string(from: date), "time": 1,
                    "request": ["method": "GET", "url": url, "httpVersion": "HTTP/1.1", "headers": [Any](), "queryString": [Any](), "cookies": [Any](), "headersSize": -1, "bodySize": 0],
                    "response": ["status": 204, "statusText": "No Content", "httpVersion": "HTTP/1.1", "headers": [Any](), "cookies": [Any](),
                                 "content": ["size": 0, "mimeType": "image/gif"], "redirectURL": "", "headersSize": -1, "bodySize": 0],
                    "cache": [String: Any](), "timings": ["send": 0, "wait": 1, "receive": 0]]
        }
        let folder = try TemporaryFolder()
        let data = try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "creator": ["name": "test", "version": "1"], "entries": entries]])
        return (folder, try folder.write("capture.har", data))
    }

    @Test func aPerfectCapture_passesEveryBreak_andALostMidpointFailsOnlyItsBreak() async throws {
        let (folder, har) = try await Self.perfectCapture()
        let report = folder.url.appendingPathComponent("audit.json").path
        let good = try await vplay(["audit", "--vmap", "media/vmap/demo.xml", "--har", har, "--report", report])
        #expect(good.status == 0, "\(good.stdout)\n\(good.stderr)")
        #expect(good.stdout.contains("3 of 3 breaks reached"), "\(good.stdout)")
        let errors = try await JSONSchemaCheck.validate([.init(report, schema: "audit-vmap.schema.json")])
        #expect(errors.isEmpty, "\(errors)")

        let (lossyFolder, lossy) = try await Self.perfectCapture { $0.contains("/midpoint?ad=vmap-demo-mid") }
        let bad = try await vplay(["audit", "--vast", "media/vmap/demo.xml", "--har", lossy, "--json"])
        withExtendedLifetime(lossyFolder) {}
        #expect(bad.status == 1 && bad.stderr.contains("audit checks failed in break 2"), "\(bad.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bad.stdout.utf8)) as? [String: Any])
        let breaks = try #require(document["breaks"] as? [[String: Any]])
        #expect(breaks.map { $0["passed"] as? Bool } == [true, false, true])
    }

    /// `--timeline`: one picture, a tag's audit picture for each break the capture reached, one under the other, a
    /// line for each it did not; the break that lost its midpoint is marked failed, the others hold.
    @Test func theTimeline_drawsEachReachedBreak_andMarksTheOneThatFailed() async throws {
        let (folder, lossy) = try await Self.perfectCapture { $0.contains("/midpoint?ad=vmap-demo-mid") }
        let svgPath = folder.url.appendingPathComponent("audit.svg").path
        let run = try await vplay(["audit", "--vmap", "media/vmap/demo.xml", "--har", lossy, "--timeline", svgPath])
        #expect(run.status == 1, "\(run.stderr)")
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        let document = try LeakSanitizer.ignore(XMLDocument(data: Data(svg.utf8)))
        let breaks = try document.nodes(forXPath: "//*[local-name()='svg'][@class='break']")
        #expect(breaks.count == 3, "\(svg.prefix(400))")
        let headings = try document.nodes(forXPath: "//*[local-name()='svg'][@class='break']/*[local-name()='svg']/*[local-name()='text'][1]").compactMap(\.stringValue)
        #expect(headings.map { $0.components(separatedBy: "): ")[0] + ")" } == ["break 1 (start)", "break 2 (00:00:20.000)", "break 3 (end)"], "\(headings)")
        #expect(headings.map { $0.hasSuffix("checks failed") } == [false, true, false], "\(headings)")
        #expect(svg.contains("checks failed</tspan></text>"))

        let (leftFolder, left) = try await Self.perfectCapture { $0.contains("vmap-demo-mid") || $0.contains("vmap-demo-post") || $0.contains("break=midroll") || $0.contains("break=postroll") }
        let leftPath = leftFolder.url.appendingPathComponent("left.svg").path
        #expect(try await vplay(["audit", "--vmap", "media/vmap/demo.xml", "--har", left, "--timeline", leftPath]).status == 0)
        let leftSVG = try String(contentsOfFile: leftPath, encoding: .utf8)
        #expect(leftSVG.components(separatedBy: #"<svg class="break""#).count == 2)
        #expect(leftSVG.contains("break 2 (00:00:20.000): not reached by the capture") && leftSVG.contains("every break holds"))
    }

    @Test func aViewerWhoLeftAfterThePreRoll_isNotFailedForTheBreaksNeverReached() async throws {
        let (folder, har) = try await Self.perfectCapture { $0.contains("vmap-demo-mid") || $0.contains("vmap-demo-post") || $0.contains("break=midroll") || $0.contains("break=postroll") }
        let run = try await vplay(["audit", "--vmap", "media/vmap/demo.xml", "--har", har])
        withExtendedLifetime(folder) {}
        #expect(run.status == 0, "\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("1 of 3 breaks reached") && run.stdout.contains("not reached by the capture"), "\(run.stdout)")
    }
}

private extension ISO8601DateFormatter {
    static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
