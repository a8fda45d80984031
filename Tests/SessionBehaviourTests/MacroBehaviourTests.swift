import AdSession
import Foundation
import Testing
import TestSupport

/// Macros a dry run fills, in process: every value of a wrapper chain's beacons, exactly.
@Suite struct MacroBehaviourTests {
    let kit = SessionKit()

    /// A wrapper (with a tracking-only companion) around an InLine served from a mapped folder, dry run.
    @Test func dryRun_wrapperChain_fillsEveryMacroExactly_andFiresCompanionTrackingInChainOrder() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("tags"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repo.media("clip-10s-360p.mp4"), toPath: folder.url.appendingPathComponent("tags/clip.mp4").path)
        let beacon = "http://127.0.0.1:9"
        _ = try folder.write("tags/inline.xml", """
            <VAST version="4.1"><Ad id="in1"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle>
            <Impression><![CDATA[\(beacon)/imp?u=[UNIVERSALADID]&s=[PLAYERSIZE]&c=[PLAYERCAPABILITIES]&n=[ADCOUNT]&t=[TRANSACTIONID]&g=[GDPRCONSENT]&x=[NOTAMACRO]&ua=[DEVICEUA]]]></Impression>
            <Creatives><Creative id="c"><UniversalAdId idRegistry="ad-id.org">CNPA0484000H</UniversalAdId><UniversalAdId idRegistry="clearcast.co.uk">AB/CD,1</UniversalAdId>
            <Linear><Duration>00:00:10</Duration>
            <TrackingEvents><Tracking event="start"><![CDATA[\(beacon)/start?a=[ASSETURI]&x=[NOTAMACRO]]]></Tracking></TrackingEvents>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[clip.mp4]]></MediaFile></MediaFiles>
            </Linear></Creative>
            <Creative><CompanionAds><Companion width="390" height="844" renderingMode="end-card">
            <StaticResource creativeType="image/png"><![CDATA[\(beacon)/endcard.png]]></StaticResource>
            <TrackingEvents><Tracking event="creativeView"><![CDATA[\(beacon)/cv/inline]]></Tracking></TrackingEvents>
            </Companion></CompanionAds></Creative></Creatives>
            <AdVerifications><Verification vendor="v.com-omid"><JavaScriptResource apiFramework="omid" browserOptional="true"><![CDATA[https://v.example/omid.js]]></JavaScriptResource>
            <TrackingEvents><Tracking event="verificationNotExecuted"><![CDATA[\(beacon)/vne?r=[REASON]&p=[ADPLAYHEAD]]]></Tracking></TrackingEvents></Verification></AdVerifications>
            </InLine></Ad></VAST>
            """)
        let wrapper = try folder.write("wrapper.xml", """
            <VAST version="4.1"><Ad id="w1"><Wrapper><AdSystem>W</AdSystem>
            <VASTAdTagURI><![CDATA[http://vast.example/tags/inline.xml]]></VASTAdTagURI>
            <Impression><![CDATA[\(beacon)/wimp]]></Impression>
            <Creatives><Creative><CompanionAds><Companion width="390" height="844">
            <TrackingEvents><Tracking event="creativeView"><![CDATA[\(beacon)/cv/wrapper]]></Tracking></TrackingEvents>
            </Companion></CompanionAds></Creative></Creatives>
            </Wrapper></Ad></VAST>
            """)
        let run = try await kit.run(cli: ["--vast", wrapper, "--map", "http://vast.example/=\(folder.url.path)/", "--dry-run", "--seed", "7",
                                   "--macro", "DEVICEUA=Tester/2.0 (sim)", "--macro", "PLAYERSIZE=640,360"])
        #expect(run.summary.outcome == .completed, "\(run.errors)")
        func urls(_ event: String) -> [String] { run.beacons(event).map(\.url) }
        let impression = try #require(urls("impression").last)
        let query = try #require(impression.split(separator: "?").last)
        let fields = Dictionary(uniqueKeysWithValues: query.split(separator: "&").map { ($0.split(separator: "=", maxSplits: 1)[0], String($0.split(separator: "=", maxSplits: 1)[1])) })
        #expect(fields["u"] == "ad-id.org%20CNPA0484000H,clearcast.co.uk%20AB%2FCD%2C1", "each ID encoded, joined with a literal ','")
        #expect(fields["s"] == "640,360" && fields["c"] == "skip,mute")
        #expect(fields["n"] == "1" && fields["g"] == "-1" && fields["x"] == "[NOTAMACRO]")
        #expect(fields["ua"] == "Tester%2F2.0%20%28sim%29")
        let transaction = try #require(fields["t"])
        #expect(transaction.range(of: #"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"#, options: .regularExpression) != nil, "\(transaction)")
        #expect(urls("start") == ["\(beacon)/start?a=http%3A%2F%2Fvast.example%2Ftags%2Fclip.mp4&x=[NOTAMACRO]"], "the absolute URL, before --map")
        #expect(urls("verificationNotExecuted") == ["\(beacon)/vne?r=2&p=-1"], "before the first frame the ad playhead is unknown")
        #expect(urls("companion.creativeView") == ["\(beacon)/cv/wrapper", "\(beacon)/cv/inline"], "wrappers first, like every other event")
        let warnings = run.warnings
        #expect(warnings.filter { $0.hasPrefix("VAST-2.0-macro-unknown: [NOTAMACRO]") } == ["VAST-2.0-macro-unknown: [NOTAMACRO] is not a VAST macro; left as written"], "reported once per session")
        #expect(!warnings.contains { $0.contains("GDPRCONSENT") || $0.contains("ADPLAYHEAD") })
    }

    /// Each fire carries the macro facts it is fired with, never the last ad's: in a pod whose ad 1 played, ad 2 (no
    /// Linear: 201 from resolution) fires its Error URL with its place's `[PODSEQUENCE]` and none of ad 1's facts.
    @Test func podAdThatFailsAfterOneThatPlayed_carriesNoneOfItsFacts() async throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: Repo.media("clip-5s-video-only.mp4"), toPath: folder.url.appendingPathComponent("clip.mp4").path)
        let tag = try folder.write("pod.xml", """
            <VAST version="4.1">
            <Ad id="a1" sequence="1"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle><AdServingId>serve-1</AdServingId><Impression><![CDATA[http://127.0.0.1:9/imp1]]></Impression>
            <Creatives><Creative><Linear><Duration>00:00:05</Duration>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="320" height="180"><![CDATA[clip.mp4]]></MediaFile></MediaFiles>
            <TrackingEvents><Tracking event="start"><![CDATA[http://127.0.0.1:9/start?s=[ADSERVINGID]&q=[PODSEQUENCE]&a=[ASSETURI]]]></Tracking></TrackingEvents>
            </Linear></Creative></Creatives></InLine></Ad>
            <Ad id="a2" sequence="2"><InLine><AdSystem>t</AdSystem><AdTitle>t</AdTitle><AdServingId>serve-2</AdServingId>
            <Impression><![CDATA[http://127.0.0.1:9/imp2]]></Impression>
            <Error><![CDATA[http://127.0.0.1:9/err?c=[ERRORCODE]&s=[ADSERVINGID]&q=[PODSEQUENCE]&a=[ASSETURI]]]></Error>
            <Creatives><Creative><NonLinearAds><NonLinear width="300" height="50"><StaticResource creativeType="image/png"><![CDATA[http://127.0.0.1:9/b.png]]></StaticResource></NonLinear></NonLinearAds></Creative></Creatives>
            </InLine></Ad></VAST>
            """)
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run", "--seed", "7"])
        let start = try #require(run.beacons("start").map(\.url).first, "ad 1 played")
        #expect(start.hasPrefix("http://127.0.0.1:9/start?s=serve-1&q=1&a=file"), "\(start)")
        #expect(run.beacons("error").map(\.url) == ["http://127.0.0.1:9/err?c=201&s=-1&q=2&a=-1"], "\(run.beacons("error"))")
    }

    /// A tag read from disk: `//host/p` is requested over https (a local page has no scheme to lend). A tag served
    /// over http lends its scheme: `ProtocolRelativeURLTests`, against a real server.
    @Test func protocolRelativeURLsOfALocalTag_useHTTPS() async throws {
        let folder = try TemporaryFolder()
        let text = try DemoTags.text()
            .replacingOccurrences(of: "<![CDATA[about:blank]]>", with: "<![CDATA[//t.example/imp]]>")
        let run = try await kit.run(cli: ["--vast", try folder.write("relative.xml", text), "--dry-run"])
        #expect(run.beacons("impression").map(\.url).contains("https://t.example/imp"), "\(run.beacons("impression"))")
    }

    /// The session id (`[TRANSACTIONID]`, the `session` of every JSON line) came from `--seed` alone, so every
    /// fixed-seed CI run of every tag shared one id. It is the same for the same seed, tag and options, and differs
    /// when any of them does; the beacon carries the id the configuration names.
    @Test func transactionID_isTheSameForTheSameTagAndOptions_distinctOtherwise() async throws {
        let folder = try TemporaryFolder()
        let text = try DemoTags.text().replacingOccurrences(of: "<![CDATA[about:blank]]>", with: "<![CDATA[http://t.example/imp?t=[TRANSACTIONID]]]>")
        let first = try folder.write("first.xml", text), second = try folder.write("second.xml", text)
        func id(_ arguments: [String]) async throws -> String {
            let run = try await kit.run(cli: arguments + ["--dry-run", "--seed", "7"])
            let url = try #require(run.beacons("impression").map(\.url).first { $0.hasPrefix("http://t.example/imp?t=") })
            #expect(url == "http://t.example/imp?t=" + (try kit.configuration(cli: arguments + ["--dry-run", "--seed", "7"])).transactionID)
            return String(url.dropFirst("http://t.example/imp?t=".count))
        }
        let base = try await id(["--vast", first])
        #expect(try await id(["--vast", first]) == base, "deterministic")
        #expect(try await id(["--vast", second]) != base, "another tag")
        #expect(try await id(["--vast", first, "--screen", "320x180"]) != base, "other options")
        #expect(try await id(["--vast", first, "--macro", "IFA=abc"]) != base, "other device macros")
    }
}
