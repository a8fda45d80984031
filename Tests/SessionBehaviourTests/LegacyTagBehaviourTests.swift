import AdSession
import Foundation
import Primitives
import Testing
import TestSupport
@testable import vplay

/// Older tags, as the peer vast-client-js plays them, in process: `[RANDOM]`-style cache busters expanded per request,
/// VAST 1's `<VASTAdTagURL><URL>` wrapper followed, the request macros a wrapper's request carries. The kit answers
/// the InLine from memory and records the URL each request asked for, macros expanded.
@Suite struct LegacyTagBehaviourTests {
    let kit = SessionKit()
    static let base = "https://old.example"

    @Test func legacyWrapperAndCacheBusters_areFollowedAndExpanded() async throws {
        var kit = kit
        try kit.media("\(Self.base)/clip.mp4", clip: "clip-5s-video-only.mp4")
        kit.tag("\(Self.base)/inline.xml", """
            <VAST version="2.0"><Ad id="old"><InLine><AdSystem>old</AdSystem><AdTitle>t</AdTitle>
            <Impression><![CDATA[http://127.0.0.1:9/imp?r=[RANDOM]&s=[random]&t=%%RANDOM%%&c=[CACHEBUSTING]]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """)
        let folder = try TemporaryFolder()
        let tag = try folder.write("wrapper.xml", """
            <VAST version="2.0"><Ad id="w"><Wrapper><AdSystem>old-wrapper</AdSystem>
            <VASTAdTagURL><URL><![CDATA[\(Self.base)/inline.xml?cb=[RANDOM]]]></URL></VASTAdTagURL>
            </Wrapper></Ad></VAST>
            """)
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", tag, "--json"])
        #expect(inspection.outcome == .completed, "\(inspection.errors)")
        let requested = try #require(kit.tagRequests.withLock { $0 }.first)
        #expect(requested.hasPrefix("\(Self.base)/inline.xml?cb=") && !requested.contains("RANDOM"), "the wrapper URL's [RANDOM] is expanded: \(requested)")
        #expect(inspection.warnings.contains { $0.rule == "VPLAY-vast-1-wrapper-form" && $0.message.contains("VASTAdTagURL") }, "the legacy form is noted: \(inspection.warnings)")

        let played = try await kit.run(cli: ["--vast", tag, "--dry-run", "--seed", "4"])
        #expect(played.summary.outcome == .completed, "\(played.errors)")
        let url = try #require(played.beacons("impression").first?.url)
        let query = Dictionary(uniqueKeysWithValues: (URLComponents(string: url)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
        #expect(query["c"]?.count == 8 && query["r"] == query["c"] && query["s"] == query["c"] && query["t"] == query["c"], "\(url)")
    }

    /// `[ADCATEGORIES]` comes from the ad's own `<Category>` values (it was sent as `-1`, "unknown", though the tag
    /// said them), encoded by the VAST 4.x list rule.
    @Test func adCategories_comeFromTheAdsCategories() async throws {
        let folder = try TemporaryFolder()
        let text = try DemoTags.text()
            .replacingOccurrences(of: "<AdServingId>", with: #"<Category authority="https://iabtechlab.com">IAB1-1</Category><Category authority="https://iabtechlab.com">IAB 9,x</Category><AdServingId>"#)
            .replacingOccurrences(of: "<![CDATA[about:blank]]>", with: "<![CDATA[http://127.0.0.1:9/imp?cat=[ADCATEGORIES]&mime=[MEDIAMIME]]]>")
        let run = try await kit.run(cli: ["--vast", try folder.write("categories.xml", text), "--dry-run"])
        #expect(run.beacons("impression").map(\.url).filter { $0.contains("cat=") }
            == ["http://127.0.0.1:9/imp?cat=IAB1-1,IAB%209%2Cx&mime=video%2Fmp4,video%2Fwebm,video%2Fquicktime,video%2Fx-m4v,video%2F3gpp"])
    }

    /// The request macros vplay knows reach the wrapper's request — `[BLOCKEDADCATEGORIES]` from the wrapper's
    /// `<BlockedAdCategories>`, the VAST versions, the API frameworks (none) and the client — and the same capability
    /// values reach a beacon URL; the player's own blocked list (`--macro`) comes first, then the chain's, each once.
    @Test func knownRequestMacros_reachTheWrapperRequestAndTheBeacons() async throws {
        var kit = kit
        try kit.media("\(Self.base)/clip.mp4", clip: "clip-5s-video-only.mp4")
        kit.tag("\(Self.base)/inline.xml", """
            <VAST version="4.2"><Ad id="in"><InLine><AdSystem>in</AdSystem><AdTitle>t</AdTitle><AdServingId>s</AdServingId>
            <Impression><![CDATA[http://127.0.0.1:9/imp?vv=[VASTVERSIONS]&api=[APIFRAMEWORKS]&cu=[CLIENTUA]]]></Impression>
            <Creatives><Creative><UniversalAdId idRegistry="unknown">u</UniversalAdId><Linear><Duration>00:00:05</Duration><MediaFiles>
            <MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """)
        let folder = try TemporaryFolder()
        let tag = try folder.write("wrapper.xml", """
            <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
            <VASTAdTagURI><![CDATA[\(Self.base)/inline.xml?bc=[BLOCKEDADCATEGORIES]&vv=[VASTVERSIONS]&api=[APIFRAMEWORKS]&cu=[CLIENTUA]]]></VASTAdTagURI>
            <Impression><![CDATA[http://127.0.0.1:9/wimp]]></Impression>
            <BlockedAdCategories authority="https://iabtechlab.com">IAB25,IAB26</BlockedAdCategories>
            </Wrapper></Ad></VAST>
            """)
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run"])
        #expect(run.summary.outcome == .completed, "\(run.errors)")
        let versions = "2,3,5,6,7,8,11,12,13,14,15,16", client = "vplay%2F\(VPlayVersion.current)"
        #expect(kit.tagRequests.withLock { $0 } == ["\(Self.base)/inline.xml?bc=IAB25,IAB26&vv=\(versions)&api=&cu=\(client)"])
        #expect(run.beacons("impression").map(\.url).contains("http://127.0.0.1:9/imp?vv=\(versions)&api=&cu=\(client)"), "\(run.planned.map(\.url))")
        let own = try await kit.run(cli: ["--vast", tag, "--dry-run", "--macro", "BLOCKEDADCATEGORIES=IAB1,IAB26"])
        #expect(own.summary.outcome == .completed, "\(own.errors)")
        #expect(!own.warnings.contains { $0.contains("--macro BLOCKEDADCATEGORIES") }, "no unknown-macro warning: \(own.warnings)")
        #expect(kit.tagRequests.withLock { $0 }.last?.hasPrefix("\(Self.base)/inline.xml?bc=IAB1,IAB26,IAB25&") == true)
    }

    /// What `inspect --strict` fails on (exit 1, `InspectAndWrapperTests`): any warning, here the legacy `[RANDOM]`
    /// note; the demo tag has none.
    @Test func legacyRandom_isAWarning_theDemoHasNone() async throws {
        let folder = try TemporaryFolder()
        let text = try DemoTags.text()
            .replacingOccurrences(of: "<![CDATA[about:blank]]>", with: "<![CDATA[http://127.0.0.1:9/imp?r=[RANDOM]]]>")
        let warned = try await kit.inspect(cli: ["inspect", "--vast", try folder.write("warned.xml", text), "--strict"])
        #expect(warned.outcome == .completed && warned.warnings.contains { $0.rule == "VAST-2.0-macro-unknown" && $0.message.contains("[RANDOM]") }, "\(warned.warnings)")
        let demo = try await kit.inspect(cli: ["inspect", "--vast", "media/demo.xml", "--strict"])
        #expect(demo.outcome == .completed && demo.warnings.isEmpty, "\(demo.warnings)")
    }
}
