import Foundation
import Testing
import TestSupport

/// `vplay inspect`'s exit codes. What inspect finds (chain, media, tracking, warnings, errors, the text) and wrapper
/// chains played through `--map` are `InspectBehaviourTests`, in process.
@Suite struct InspectAndWrapperTests {
    /// Only a process shows the exit status: 3 for a tag with no playable ad (with or without `--strict`), 1 for a
    /// playable tag with warnings under `--strict`, 0 for it without.
    @Test func inspect_exitCodes_onlyTheProcessShowsThem() async throws {
        let folder = try TemporaryFolder()
        let noAd = try folder.write("empty.xml", #"<VAST version="4.1"><Error><![CDATA[http://t/e?c=[ERRORCODE]]]></Error></VAST>"#)
        let unplayable = try folder.write("broken.xml", """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
            <Creatives><Creative><Linear><TrackingEvents><Tracking>http://127.0.0.1:9/t</Tracking></TrackingEvents>
            </Linear></Creative></Creatives></Wrapper></Ad></VAST>
            """)
        let text = try DemoTags.text()
            .replacingOccurrences(of: "</VAST>", with: """
                <Ad id="broken"><Wrapper><AdSystem>w</AdSystem><Impression>http://127.0.0.1:9/wimp</Impression>
                </Wrapper></Ad></VAST>
                """)
        let playableWithWarnings = try folder.write("two.xml", text)
        let cases: [([String], Int32)] = [
            ([noAd, "--json"], 3), ([unplayable], 3), ([unplayable, "--strict"], 3),
            ([playableWithWarnings, "--strict", "--json"], 1), ([playableWithWarnings], 0),
        ]
        for (arguments, status) in cases {
            let run = try await vplay(["inspect", "--vast"] + arguments)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
        }
    }
}

/// A wrapper (a local file) to an InLine served over loopback HTTP, each with companions, an icon and a
/// verification; the InLine sits at `/sub/index.html`, so `http.server` answers `/sub?…` with a 301 to `/sub/?…`,
/// and its MediaFile is relative (`clip.mp4`, served next to it). What `inspect` lists of such a chain is
/// `InspectBehaviourTests`, in process; here only what a real server shows.
@Suite struct WrapperChainOverHTTPTests {
    /// Writes the served folder and the wrapper tag; returns the wrapper's path.
    static func fixture(_ folder: TemporaryFolder, server: ScriptedHTTPServer) throws -> String {
        let base = server.baseURL
        let inline = DemoTags.trackingParts("inline", base), wrapper = DemoTags.trackingParts("w1", base)
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

    /// Finding 9: the wrapper's VASTAdTagURI macros are expanded when it is fetched (`[CACHEBUSTING]` from
    /// `--seed`, `[TIMESTAMP]` from `--now`, device macros), unknown ones left alone. Finding 16: the relative
    /// MediaFile resolves against the InLine's URL *after* the redirect, so the real clip plays. Only a real loopback
    /// server shows the requests as they went out: the tag URI's expanded query, the 301 followed, FFmpeg's Range
    /// request answered 206.
    @Test func dryRun_expandsTagURIMacros_andResolvesMediaAgainstTheRedirectedURL_onARealServer() async throws {
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
