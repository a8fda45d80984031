import Foundation
import Testing
import TestSupport

/// `vplay inspect`, and wrapper chains played offline through `--map`.
@Suite struct InspectAndWrapperTests {
    static let iab = Repo.root.deletingLastPathComponent().appendingPathComponent("shared/vast-samples/iab").path
    static let iabMaps = [
        "--map", "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/VAST_Samples/master/VAST%204.0%20Samples/=\(iab)/vast4.0/",
        "--map", "https://iab-publicfiles.s3.amazonaws.com/vast/=\(iab)/media/",
    ]

    @Test func inspectJSON_demo_listsChainMediaAndEveryTrackingURLWithItsSource() async throws {
        let run = try await vplay(["inspect", "--vast", "media/demo.xml", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(run.lines.first)
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.count == 1 && (chain[0]["adSystems"] as? [String]) == ["vplay demo server"])
        let media = try #require(object["media"] as? [String: Any])
        #expect(media["url"] as? String == "clip-10s-360p.mp4" && media["duration"] as? Double == 10.0)
        let tracking = try #require(object["tracking"] as? [[String: Any]])
        #expect(tracking.filter { $0["event"] as? String == "impression" }.count == 1, "about:blank is not a tracking URL")
        #expect(tracking.filter { $0["event"] as? String == "progress" }.compactMap { $0["offsetAsWritten"] as? String } == ["00:00:02.000", "30%"])
        #expect(tracking.allSatisfy { $0["source"] as? String == "inline" })
        #expect((object["errors"] as? [Any])?.isEmpty == true)
    }

    @Test func inspect_noAd_exits3() async throws {
        let folder = try TemporaryFolder()
        let run = try await vplay(["inspect", "--vast", try folder.write("empty.xml", #"<VAST version="4.1"><Error><![CDATA[http://t/e?c=[ERRORCODE]]]></Error></VAST>"#), "--json"])
        #expect(run.status == 3)
        let errors = try #require(run.lines.first?["errors"] as? [[String: Any]])
        #expect(errors.first?["code"] as? Int == 303)
    }

    /// Issue 15, item 10: a wrapper without `VASTAdTagURI` is still error 101 (exit 3, as before), and `inspect` also
    /// lists the rest of what is wrong with the tag instead of stopping at that fault.
    @Test func inspect_wrapperWithoutTagURI_listsItsOtherFaultsToo() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("broken.xml", """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
            <Error><![CDATA[http://127.0.0.1:9/werr?c=[ERRORCODE]]]></Error>
            <Creatives><Creative><Linear><TrackingEvents><Tracking>http://127.0.0.1:9/t</Tracking></TrackingEvents>
            </Linear></Creative></Creatives></Wrapper></Ad></VAST>
            """)
        let run = try await vplay(["inspect", "--vast", tag, "--json"])
        #expect(run.status == 3, "still an ad error: \(run.stderr)")
        let object = try #require(run.lines.first)
        #expect((object["errors"] as? [[String: Any]])?.compactMap { $0["code"] as? Int } == [101])
        let warnings = try #require(object["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("<Wrapper> has no <VASTAdTagURI>") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("<Wrapper> has no <Impression> URL") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("<Tracking> lacks required attribute(s): event") }, "\(warnings)")
        let text = try await vplay(["inspect", "--vast", tag, "--strict"])
        #expect(text.status == 3, "an unplayable tag exits 3 with or without --strict")
        #expect(text.stdout.contains("warning: missingRecommended at hop 0: VAST/Ad[1]/Wrapper: <Wrapper> has no <Impression> URL"), "\(text.stdout)")
    }

    /// A playable tag with a broken wrapper ad beside its InLine: `inspect` lists the broken ad and its other faults,
    /// and `--strict` fails the lint (exit 1) on them.
    @Test func inspectStrict_brokenWrapperBesideAPlayableAd_exitsOneAndListsEveryFault() async throws {
        let folder = try TemporaryFolder()
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]>")
            .replacingOccurrences(of: "</VAST>", with: """
                <Ad id="broken"><Wrapper><AdSystem>w</AdSystem><Impression>http://127.0.0.1:9/wimp</Impression>
                <Creatives><Creative><Linear><TrackingEvents><Tracking>http://127.0.0.1:9/t</Tracking></TrackingEvents>
                </Linear></Creative></Creatives></Wrapper></Ad></VAST>
                """)
        let tag = try folder.write("two.xml", text)
        let strict = try await vplay(["inspect", "--vast", tag, "--strict", "--json"])
        #expect(strict.status == 1, "\(strict.stderr)")
        let warnings = try #require(strict.lines.first?["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("VAST/Ad[2]: <Wrapper> has no <VASTAdTagURI>") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("VAST/Ad[2]/Wrapper/Creatives/Creative[1]/Linear/TrackingEvents/Tracking: <Tracking> lacks required attribute(s): event") }, "\(warnings)")
        #expect(try await vplay(["inspect", "--vast", tag]).status == 0, "without --strict the playable tag passes")
    }

    @Test func inspect_durationMismatch_isWarned() async throws {
        let folder = try TemporaryFolder()
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<Duration>00:00:10.000</Duration>", with: "<Duration>00:00:30</Duration>")
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "file://\(Repo.media("clip-10s-360p.mp4"))")
        let run = try await vplay(["inspect", "--vast", try folder.write("tag.xml", tag), "--json"])
        #expect(run.status == 0)
        let warnings = try #require(run.lines.first?["warnings"] as? [String])
        #expect(warnings.contains { $0.contains("differs from the media's") && $0.contains("quartiles use the media's") }, "worded as a run words it")
    }

    @Test(.enabled(if: Repo.iabAvailable, Comment(rawValue: Repo.iabAbsent)))
    func iabWrapperSample_dryRunThroughMap_listsWrapperImpressionBesideTheInLines() async throws {
        let run = try await vplay(["--vast", "\(Self.iab)/vast4.1/Wrapper_Tag-test.xml", "--dry-run", "--json", "--now", "0"] + Self.iabMaps)
        #expect(run.status == 0, "\(run.stderr)")
        let beacons = run.lines.filter { $0["kind"] as? String == "beacon" }
        let impressions = beacons.filter { $0["event"] as? String == "impression" }
        #expect(impressions.compactMap { $0["source"] as? String } == ["wrapper 1 (iabtechlab)", "inline"])
        let resolved = try #require(run.lines.first { $0["kind"] as? String == "resolved" })
        #expect(resolved["wrappers"] as? Int == 1)
        // The IAB clip's frames last 15.16263 s: quartiles at exactly a quarter of it, to the microsecond.
        let events = run.lines.filter { $0["kind"] as? String == "event" }
        #expect(events.first { $0["name"] as? String == "firstQuartile" }?["playhead"] as? Double == 3.790658)
        #expect(events.first { $0["name"] as? String == "complete" }?["playhead"] as? Double == 15.16263)
    }

    @Test(.enabled(if: Repo.iabAvailable, Comment(rawValue: Repo.iabAbsent)))
    func iabWrapperSample_inspect_showsTwoHops() async throws {
        let run = try await vplay(["inspect", "--vast", "\(Self.iab)/vast4.1/Wrapper_Tag-test.xml", "--json"] + Self.iabMaps)
        #expect(run.status == 0, "\(run.stderr)")
        let chain = try #require(run.lines.first?["chain"] as? [[String: Any]])
        #expect(chain.count == 2)
        #expect((chain[1]["url"] as? String)?.hasPrefix("https://raw.githubusercontent.com/") == true)
    }
}

/// A wrapper (a local file) to an InLine served over loopback HTTP, each with companions, an icon and a
/// verification; the InLine sits at `/sub/index.html`, so `http.server` answers `/sub?…` with a 301 to `/sub/?…`,
/// and its MediaFile is relative (`clip.mp4`, served next to it).
@Suite struct WrapperChainOverHTTPTests {
    static func trackingParts(_ who: String, _ base: String) -> (linear: String, creatives: String, inLine: String) {
        let linear = """
            <Icons><Icon program="AdChoices" width="20" height="20"><StaticResource creativeType="image/png">\(base)/\(who)/icon.png</StaticResource>
            <IconClicks><IconClickThrough>https://example.com/adchoices</IconClickThrough><IconClickTracking>\(base)/\(who)/iconclick</IconClickTracking></IconClicks>
            <IconViewTracking>\(base)/\(who)/iconview</IconViewTracking></Icon></Icons>
            """
        let creatives = """
            <Creative><CompanionAds><Companion width="300" height="250"><StaticResource creativeType="image/png">\(base)/\(who)/c.png</StaticResource>
            <TrackingEvents><Tracking event="creativeView">\(base)/\(who)/cv</Tracking></TrackingEvents>
            <CompanionClickTracking>\(base)/\(who)/cct</CompanionClickTracking></Companion></CompanionAds></Creative>
            """
        let inLine = """
            <AdVerifications><Verification vendor="\(who).example-omid"><JavaScriptResource apiFramework="omid" browserOptional="true">\(base)/\(who)/omid.js</JavaScriptResource>
            <TrackingEvents><Tracking event="verificationNotExecuted">\(base)/\(who)/vne?r=[REASON]</Tracking></TrackingEvents></Verification></AdVerifications>
            """
        return (linear, creatives, inLine)
    }

    /// Writes the served folder and the wrapper tag; returns the wrapper's path.
    static func fixture(_ folder: TemporaryFolder, server: ScriptedHTTPServer) throws -> String {
        let base = server.baseURL
        let inline = trackingParts("inline", base), wrapper = trackingParts("w1", base)
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("www/sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repo.media("clip-10s-360p.mp4"), toPath: folder.url.appendingPathComponent("www/sub/clip.mp4").path)
        _ = try folder.write("www/sub/index.html", """
            <VAST version="4.1"><Ad id="in"><InLine><AdSystem>insys</AdSystem><AdTitle>t</AdTitle><AdServingId>s</AdServingId>
            <Impression>\(base)/inline/imp</Impression><Error>\(base)/inline/err?c=[ERRORCODE]</Error>\(inline.inLine)
            <Creatives><Creative><Linear><Duration>00:00:10</Duration>
            <TrackingEvents><Tracking event="start">\(base)/inline/start</Tracking></TrackingEvents>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360" bitrate="223">clip.mp4</MediaFile></MediaFiles>
            \(inline.linear)</Linear></Creative>\(inline.creatives)</Creatives></InLine></Ad></VAST>
            """)
        return try folder.write("wrapper.xml", """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>w1</AdSystem>
            <VASTAdTagURI><![CDATA[\(base)/sub?cb=[CACHEBUSTING]&ts=[TIMESTAMP]&bundle=[APPBUNDLE]&x=[NOTAMACRO]]]></VASTAdTagURI>
            <Impression>\(base)/w1/imp</Impression><Error>\(base)/w1/err?c=[ERRORCODE]</Error>\(wrapper.inLine)
            <Creatives><Creative><Linear>\(wrapper.linear)</Linear></Creative>\(wrapper.creatives)
            <Creative><CompanionAds><Companion><TrackingEvents><Tracking event="creativeView">\(base)/w1/anycv</Tracking></TrackingEvents>
            <CompanionClickTracking>\(base)/w1/anycct</CompanionClickTracking></Companion></CompanionAds></Creative></Creatives>
            </Wrapper></Ad></VAST>
            """)
    }

    /// Finding 5: inspect lists every URL a session can fire — each companion's creativeView and
    /// CompanionClickTracking (InLine's and the wrapper's), icon view/click tracking and verificationNotExecuted —
    /// each with its source.
    @Test func inspect_listsCompanionIconAndVerificationTrackingOfTheWholeChain() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("www/sub"), withIntermediateDirectories: true)
        let server = try ScriptedHTTPServer(files: folder.url.appendingPathComponent("www").path)
        defer { server.stop() }
        let tag = try Self.fixture(folder, server: server)
        let run = try await vplay(["inspect", "--vast", tag, "--json", "--no-media"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try #require(run.lines.first?["tracking"] as? [[String: Any]])
        func urls(_ event: String) -> [String] {
            rows.filter { $0["event"] as? String == event }.map { "\($0["source"] as? String ?? "?") \(URL(string: $0["url"] as? String ?? "")?.path ?? "")" }
        }
        #expect(urls("companion.creativeView") == ["wrapper 1 (w1) /w1/cv", "inline /inline/cv", "wrapper 1 (w1) /w1/anycv"])
        #expect(urls("companion.clickTracking") == ["wrapper 1 (w1) /w1/cct", "inline /inline/cct", "wrapper 1 (w1) /w1/anycct"])
        #expect(urls("icon.viewTracking") == ["wrapper 1 (w1) /w1/iconview", "inline /inline/iconview"])
        #expect(urls("icon.clickTracking") == ["wrapper 1 (w1) /w1/iconclick", "inline /inline/iconclick"])
        #expect(urls("verificationNotExecuted") == ["wrapper 1 (w1) /w1/vne", "inline /inline/vne"])
    }

    /// Finding 9: the wrapper's VASTAdTagURI macros are expanded when it is fetched (`[CACHEBUSTING]` from
    /// `--seed`, `[TIMESTAMP]` from `--now`, device macros), unknown ones left alone. Finding 16: the relative
    /// MediaFile resolves against the InLine's URL *after* the redirect, so the real clip plays.
    @Test func dryRun_expandsTagURIMacros_andResolvesMediaAgainstTheRedirectedURL() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("www/sub"), withIntermediateDirectories: true)
        let server = try ScriptedHTTPServer(files: folder.url.appendingPathComponent("www").path)
        defer { server.stop() }
        let tag = try Self.fixture(folder, server: server)
        let run = try await vplay(["--vast", tag, "--dry-run", "--json", "--seed", "7", "--now", "2026-01-01T00:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let requests = server.requests()
        let tagRequest = try #require(requests.first { $0.target.hasPrefix("/sub?") })
        #expect(tagRequest.status == 301)
        let query = tagRequest.target.dropFirst("/sub?".count)
        #expect(query.range(of: #"^cb=[0-9]{8}&ts=2026-01-01T00%3A00%3A00\.000%2B00%3A00&bundle=com\.example\.vplay&x=(\[|%5B)NOTAMACRO(\]|%5D)$"#,
                            options: .regularExpression) != nil, "\(query)")
        #expect(requests.contains { $0.target == "/sub/?\(query)" && $0.status == 200 }, "the redirect was followed")
        // FFmpeg asks for `Range: bytes=0-`, which the file server answers as a real one does: 206 Partial Content.
        #expect(requests.contains { $0.target == "/sub/clip.mp4" && $0.status == 206 }, "\(requests)")
        let resolved = try #require(run.lines.first { $0["kind"] as? String == "resolved" })
        #expect((resolved["media"] as? [String: Any])?["url"] as? String == "clip.mp4")
    }
}

/// The Adcash quality rule (seed 000, Table 5) from the CLI: no history → low; a fast download steps up.
@Suite struct AdcashQualityTests {
    @Test func adcashState_firstRunLow_thenAFastDownloadStepsUpToHigh() async throws {
        let folder = try TemporaryFolder()
        let files = [("low", 100, "clip-5s-video-only.mp4"), ("mid", 150, "clip-audio-outlasts-video.mp4"), ("high", 223, "clip-10s-360p.mp4")]
        let media = files.map { id, kbps, clip in
            #"<MediaFile id="\#(id)" delivery="progressive" type="video/mp4" width="640" height="360" bitrate="\#(kbps)"><![CDATA[file://\#(Repo.media(clip))]]></MediaFile>"#
        }.joined(separator: "\n")
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: #"<MediaFile id="demo-360p" delivery="progressive" type="video/mp4" width="640" height="360" bitrate="223" codec="avc1.64001e"><![CDATA[clip-10s-360p.mp4]]></MediaFile>"#, with: media)
        let tagPath = try folder.write("tag.xml", tag)
        let state = folder.url.appendingPathComponent("adcash.json").path
        func chosen() async throws -> String? {
            let run = try await vplay(["--vast", tagPath, "--dry-run", "--json", "--adcash-state", state])
            #expect(run.status == 0, "\(run.stderr)")
            return (run.lines.first { $0["kind"] as? String == "resolved" }?["media"] as? [String: Any])?["url"] as? String
        }
        #expect(try await chosen()?.hasSuffix("clip-5s-video-only.mp4") == true, "no history: low")
        let saved = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any])
        #expect(saved["quality"] as? String == "low" && (saved["downloadSeconds"] as? Double ?? 99) < 2)
        #expect(try await chosen()?.hasSuffix("clip-10s-360p.mp4") == true, "low downloaded in ≤ 2 s: high")
        // A slow high-quality download (10 s or more) steps down to low.
        try Data(#"{"quality":"high","downloadSeconds":12}"#.utf8).write(to: URL(fileURLWithPath: state))
        #expect(try await chosen()?.hasSuffix("clip-5s-video-only.mp4") == true)
        try Data(#"{"quality":"high","downloadSeconds":7}"#.utf8).write(to: URL(fileURLWithPath: state))
        #expect(try await chosen()?.hasSuffix("clip-audio-outlasts-video.mp4") == true, "5 ≤ x < 10 on high: mid")
    }
}
