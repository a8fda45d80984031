import Primitives
import Foundation
import Testing
import TestSupport

/// Older tags, as the peer vast-client-js plays them: `[RANDOM]`-style cache busters expanded per request, and VAST
/// 1's `<VASTAdTagURL><URL>` wrapper followed, over a loopback server.
@Suite(.hangLimit) struct LegacyTagTests {
    @Test func legacyWrapperAndCacheBusters_areFollowedAndExpanded() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let inLine = """
            <VAST version="2.0"><Ad id="old"><InLine><AdSystem>old</AdSystem><AdTitle>t</AdTitle>
            <Impression><![CDATA[http://127.0.0.1:9/imp?r=[RANDOM]&s=[random]&t=%%RANDOM%%&c=[CACHEBUSTING]]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        let server = try ScriptedHTTPServer { target in
            if target.hasPrefix("/inline.xml") { return .body(Data(inLine.utf8), contentType: "application/xml") }
            return target == "/clip.mp4" ? .file(clip) : .status(404)
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let tag = try folder.write("wrapper.xml", """
            <VAST version="2.0"><Ad id="w"><Wrapper><AdSystem>old-wrapper</AdSystem>
            <VASTAdTagURL><URL><![CDATA[\(server.baseURL)/inline.xml?cb=[RANDOM]]]></URL></VASTAdTagURL>
            </Wrapper></Ad></VAST>
            """)
        let run = try await vplay(["inspect", "--vast", tag, "--json"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        let requested = try #require(server.requests().first).target
        #expect(requested.hasPrefix("/inline.xml?cb=") && !requested.contains("RANDOM"), "the wrapper URL's [RANDOM] is expanded: \(requested)")
        #expect(run.stdout.contains("VASTAdTagURL"), "the legacy form is noted")

        let played = try await vplay(["--vast", tag, "--json", "--dry-run", "--seed", "4"])
        let impression = try #require(played.lines.first { $0["kind"] as? String == "beacon" && $0["event"] as? String == "impression" })
        let url = try #require(impression["url"] as? String)
        let query = Dictionary(uniqueKeysWithValues: (URLComponents(string: url)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["c"]?.count == 8 && query["r"] == query["c"] && query["s"] == query["c"] && query["t"] == query["c"], "\(url)")
    }
    /// `[ADCATEGORIES]` comes from the ad's own `<Category>` values (it was sent as `-1`, "unknown", though the tag
    /// said them), encoded by the VAST 4.x list rule.
    @Test func adCategories_comeFromTheAdsCategories() async throws {
        let folder = try TemporaryFolder()
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<AdServingId>", with: #"<Category authority="https://iabtechlab.com">IAB1-1</Category><Category authority="https://iabtechlab.com">IAB 9,x</Category><AdServingId>"#)
            .replacingOccurrences(of: "<![CDATA[about:blank]]>", with: "<![CDATA[http://127.0.0.1:9/imp?cat=[ADCATEGORIES]&mime=[MEDIAMIME]]]>")
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]>")
        let tag = try folder.write("categories.xml", text)
        let run = try await vplay(["--vast", tag, "--dry-run", "--json"])
        let urls = run.lines.compactMap { $0["url"] as? String }
        #expect(urls.contains("http://127.0.0.1:9/imp?cat=IAB1-1,IAB%209%2Cx&mime=video%2Fmp4,video%2Fwebm,video%2Fquicktime,video%2Fx-m4v,video%2F3gpp"),
                "\(urls.filter { $0.contains("cat=") })")
    }
    /// Through the binary: the request macros vplay knows reach the wrapper's request to a loopback server —
    /// `[BLOCKEDADCATEGORIES]` from the wrapper's `<BlockedAdCategories>`, the VAST versions, the API frameworks
    /// (none) and the client — and the same capability values reach a beacon URL of the dry run.
    @Test func knownRequestMacros_reachTheWrapperRequestAndTheBeacons() async throws {
        let clip = Repo.media("clip-5s-video-only.mp4")
        let inLine = """
            <VAST version="4.2"><Ad id="in"><InLine><AdSystem>in</AdSystem><AdTitle>t</AdTitle><AdServingId>s</AdServingId>
            <Impression><![CDATA[http://127.0.0.1:9/imp?vv=[VASTVERSIONS]&api=[APIFRAMEWORKS]&cu=[CLIENTUA]]]></Impression>
            <Creatives><Creative><UniversalAdId idRegistry="unknown">u</UniversalAdId><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        let server = try ScriptedHTTPServer { target in
            if target.hasPrefix("/inline.xml") { return .body(Data(inLine.utf8), contentType: "application/xml") }
            return target == "/clip.mp4" ? .file(clip) : .status(404)
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let tag = try folder.write("wrapper.xml", """
            <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
            <VASTAdTagURI><![CDATA[\(server.baseURL)/inline.xml?bc=[BLOCKEDADCATEGORIES]&vv=[VASTVERSIONS]&api=[APIFRAMEWORKS]&cu=[CLIENTUA]]]></VASTAdTagURI>
            <Impression><![CDATA[http://127.0.0.1:9/wimp]]></Impression>
            <BlockedAdCategories authority="https://iabtechlab.com">IAB25,IAB26</BlockedAdCategories>
            </Wrapper></Ad></VAST>
            """)
        let run = try await vplay(["--vast", tag, "--dry-run", "--json"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        let versions = "2,3,5,6,7,8,11,12,13,14,15,16"
        let requested = try #require(server.requests().first).target
        #expect(requested == "/inline.xml?bc=IAB25,IAB26&vv=\(versions)&api=&cu=vplay%2F\(VPlayVersion.current)", "\(requested)")
        let urls = run.lines.filter { $0["kind"] as? String == "beacon" }.compactMap { $0["url"] as? String }
        #expect(urls.contains("http://127.0.0.1:9/imp?vv=\(versions)&api=&cu=vplay%2F\(VPlayVersion.current)"), "\(urls)")
        // The player's own blocked list (--macro) comes first, then the chain's, each code once.
        let own = try await vplay(["--vast", tag, "--dry-run", "--json", "--macro", "BLOCKEDADCATEGORIES=IAB1,IAB26"])
        #expect(own.status == 0, "exit \(own.status): \(own.stderr)")
        #expect(!own.lines.contains { ($0["message"] as? String)?.contains("--macro BLOCKEDADCATEGORIES") == true }, "no unknown-macro warning")
        let second = server.requests().map(\.target).filter { $0.hasPrefix("/inline.xml") }.dropFirst().first
        #expect(second?.hasPrefix("/inline.xml?bc=IAB1,IAB26,IAB25&") == true, "\(second ?? "none")")
    }

    /// `inspect --strict` lints a tag for CI: any warning (here the legacy `[RANDOM]` note) exits 1; a clean tag 0.
    @Test func inspectStrict_exitsOneOnAnyWarning() async throws {
        let folder = try TemporaryFolder()
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[about:blank]]>", with: "<![CDATA[http://127.0.0.1:9/imp?r=[RANDOM]]]>")
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]>")
        let warned = try folder.write("warned.xml", text)
        #expect(try await vplay(["inspect", "--vast", warned, "--strict"]).status == 1)
        #expect(try await vplay(["inspect", "--vast", warned]).status == 0, "without --strict a warning does not fail")
        #expect(try await vplay(["inspect", "--vast", "media/demo.xml", "--strict"]).status == 0)
    }
}
