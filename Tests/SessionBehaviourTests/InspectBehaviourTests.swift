import AdSession
import Foundation
import Primitives
import Testing
import TestSupport
@testable import vplay

/// `vplay inspect` in process: the chain, the media chosen, every tracking URL with its source, warnings and errors
/// are values of `AdInspection`; wrapper chains played offline through `--map`. What only the process shows (the exit
/// codes, `--strict`'s among them) is `InspectAndWrapperTests` in the end-to-end suite.
@Suite struct InspectBehaviourTests {
    let kit = SessionKit()

    static let iab = Repo.root.deletingLastPathComponent().appendingPathComponent("shared/vast-samples/iab").path
    static let iabMaps = [
        "--map", "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/VAST_Samples/master/VAST%204.0%20Samples/=\(iab)/vast4.0/",
        "--map", "https://iab-publicfiles.s3.amazonaws.com/vast/=\(iab)/media/",
    ]

    @Test func demo_listsChainMediaAndEveryTrackingURLWithItsSource() async throws {
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", "media/demo.xml", "--json"])
        #expect(inspection.hops.map(\.adSystems) == [["vplay demo server"]])
        #expect(inspection.selection?.file.url == "clip-10s-360p.mp4" && inspection.media?.duration == 10.0)
        #expect(inspection.tracking.filter { $0.event == "impression" }.count == 1, "about:blank is not a tracking URL")
        #expect(inspection.tracking.filter { $0.event == "progress" }.map(\.offset) == ["00:00:02.000", "30%"])
        #expect(!inspection.tracking.isEmpty && inspection.tracking.allSatisfy { $0.source == "inline" })
        #expect(inspection.errors.isEmpty && inspection.outcome == .completed)
        // The same, as `vplay inspect --json` prints it.
        let object = try #require(try JSONSerialization.jsonObject(with: Data(InspectRendering.json(inspection).text.utf8)) as? [String: Any])
        let chain = try #require(object["chain"] as? [[String: Any]])
        #expect(chain.count == 1 && (chain[0]["adSystems"] as? [String]) == ["vplay demo server"])
        let media = try #require(object["media"] as? [String: Any])
        #expect(media["url"] as? String == "clip-10s-360p.mp4" && media["duration"] as? Double == 10.0)
        let tracking = try #require(object["tracking"] as? [[String: Any]])
        #expect(tracking.filter { $0["event"] as? String == "progress" }.compactMap { $0["offsetAsWritten"] as? String } == ["00:00:02.000", "30%"])
        #expect((object["errors"] as? [Any])?.isEmpty == true)
    }

    @Test func noAd_isError303_anAdError() async throws {
        var kit = kit
        kit.tag("https://ads.example/empty.xml", #"<VAST version="4.1"><Error><![CDATA[http://t/e?c=[ERRORCODE]]]></Error></VAST>"#)
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", "https://ads.example/empty.xml", "--json"])
        #expect(inspection.errors.map(\.code.rawValue) == [303])
        #expect(inspection.outcome == .adError, "exit 3")
    }

    static let wrapperWithoutTagURI = """
        <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
        <Error><![CDATA[http://127.0.0.1:9/werr?c=[ERRORCODE]]]></Error>
        <Creatives><Creative><Linear><TrackingEvents><Tracking>http://127.0.0.1:9/t</Tracking></TrackingEvents>
        </Linear></Creative></Creatives></Wrapper></Ad></VAST>
        """

    /// Issue 15, item 10: a wrapper without `VASTAdTagURI` is still error 101 (an ad error), and `inspect` also lists
    /// the rest of what is wrong with the tag instead of stopping at that fault; the text names each one's kind and
    /// place.
    @Test func wrapperWithoutTagURI_isError101_andItsOtherFaultsAreListedToo() async throws {
        var kit = kit
        kit.tag("https://ads.example/broken.xml", Self.wrapperWithoutTagURI)
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", "https://ads.example/broken.xml", "--strict"])
        #expect(inspection.errors.map(\.code.rawValue) == [101])
        #expect(inspection.outcome == .adError, "still an ad error, with or without --strict")
        let warnings = inspection.warnings.map(\.description)
        #expect(warnings.contains { $0.contains("<Wrapper> has no <VASTAdTagURI>") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("<Wrapper> has no <Impression> URL") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("<Tracking> lacks required attribute(s): event") }, "\(warnings)")
        let text = InspectRendering.text(inspection)
        #expect(text.contains("warning: VAST-2.0-wrapper-impression at hop 0: VAST/Ad[1]/Wrapper: <Wrapper> has no <Impression> URL"), "\(text)")
    }

    /// The demo tag (media as an absolute path, so the tag can live in a temporary folder) with a broken wrapper ad
    /// after its InLine.
    static func demoWithABrokenWrapper(_ folder: TemporaryFolder) throws -> String {
        let text = try DemoTags.text()
            .replacingOccurrences(of: "</VAST>", with: """
                <Ad id="broken"><Wrapper><AdSystem>w</AdSystem><Impression>http://127.0.0.1:9/wimp</Impression>
                <Creatives><Creative><Linear><TrackingEvents><Tracking>http://127.0.0.1:9/t</Tracking></TrackingEvents>
                </Linear></Creative></Creatives></Wrapper></Ad></VAST>
                """)
        return try folder.write("two.xml", text)
    }

    /// A playable tag with a broken wrapper ad beside its InLine: it plays (no error), and `inspect` lists the broken
    /// ad's faults by their place in the tag (which `--strict` fails on).
    @Test func brokenWrapperBesideAPlayableAd_playsAndListsEveryFault() async throws {
        let folder = try TemporaryFolder()
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", try Self.demoWithABrokenWrapper(folder), "--strict", "--json"])
        #expect(inspection.outcome == .completed, "the playable tag passes: \(inspection.errors)")
        #expect(inspection.errors.map(\.code.rawValue) == [101], "the broken ad is listed: \(inspection.errors)")
        let warnings = inspection.warnings.map(\.description)
        #expect(warnings.contains { $0.contains("VAST/Ad[2]: <Wrapper> has no <VASTAdTagURI>") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("VAST/Ad[2]/Wrapper/Creatives/Creative[1]/Linear/TrackingEvents/Tracking: <Tracking> lacks required attribute(s): event") },
                "\(warnings)")
    }

    @Test func durationMismatch_isWarned_asARunWordsIt() async throws {
        let folder = try TemporaryFolder()
        let tag = try DemoTags.text()
            .replacingOccurrences(of: "<Duration>00:00:10.000</Duration>", with: "<Duration>00:00:30</Duration>")
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", try folder.write("tag.xml", tag), "--json"])
        #expect(inspection.outcome == .completed)
        #expect(inspection.warnings.contains { $0.rule == "VPLAY-media-duration-declared" && $0.message.contains("differs from the media's") && $0.message.contains("quartiles use the media's") }, "\(inspection.warnings)")
    }

    /// `inspect` named no verification vendor and gave none of the `verificationNotExecuted` warnings a run gives for
    /// the same tag, so `inspect --strict` passed a tag whose run warned: it gives the run's warnings, word for word.
    @Test func verificationWarnings_areTheRunsWarnings() async throws {
        let run = try await kit.run(cli: ["--vast", "media/viewability.xml", "--dry-run"])
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", "media/viewability.xml"])
        let fromRun = run.warnings.filter { $0.hasPrefix("VPLAY-verification-not-executed: verification ") }
        #expect(!fromRun.isEmpty)
        #expect(inspection.warnings.map(\.description).filter { $0.hasPrefix("VPLAY-verification-not-executed: verification ") } == fromRun, "\(inspection.warnings)")
        let withoutMedia = try await kit.inspect(cli: ["inspect", "--vast", "media/viewability.xml", "--no-media"])
        #expect(withoutMedia.warnings.map(\.description).filter { $0.hasPrefix("VPLAY-verification-not-executed: verification ") } == fromRun)
    }

    @Test(.enabled(if: Repo.iabAvailable, Comment(rawValue: Repo.iabAbsent)))
    func iabWrapperSample_dryRunThroughMap_listsWrapperImpressionBesideTheInLines() async throws {
        let run = try await kit.run(cli: ["--vast", "\(Self.iab)/vast4.1/Wrapper_Tag-test.xml", "--dry-run", "--json", "--now", "0"] + Self.iabMaps)
        #expect(run.summary.outcome == .completed)
        #expect(run.beacons("impression").map(\.source) == ["wrapper 1 (iabtechlab)", "inline"])
        #expect(run.resolved.map(\.wrapperCount) == [1])
        // The IAB clip's frames last 15.16263 s: quartiles at exactly a quarter of it, to the microsecond.
        #expect(run.events(.firstQuartile).map(\.playhead.microsecondSeconds) == [3.790658])
        #expect(run.events(.complete).map(\.playhead.microsecondSeconds) == [15.16263])
    }

    @Test(.enabled(if: Repo.iabAvailable, Comment(rawValue: Repo.iabAbsent)))
    func iabWrapperSample_inspect_showsTwoHops() async throws {
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", "\(Self.iab)/vast4.1/Wrapper_Tag-test.xml", "--json"] + Self.iabMaps)
        #expect(inspection.outcome == .completed)
        #expect(inspection.hops.count == 2)
        #expect(inspection.hops.last?.url.hasPrefix("https://raw.githubusercontent.com/") == true)
    }

    /// Finding 5: inspect lists every URL a session can fire — each companion's creativeView and
    /// CompanionClickTracking (InLine's and the wrapper's, and the wrapper's tracking-only companion), icon view/click
    /// tracking and verificationNotExecuted — each with its source.
    @Test func listsCompanionIconAndVerificationTrackingOfTheWholeChain() async throws {
        let base = "https://ads.example"
        let inline = DemoTags.trackingParts("inline", base), wrapper = DemoTags.trackingParts("w1", base)
        var kit = kit
        kit.tag("\(base)/sub/", """
            <VAST version="4.1"><Ad id="in"><InLine><AdSystem>insys</AdSystem><AdTitle>t</AdTitle><AdServingId>s</AdServingId>
            <Impression>\(base)/inline/imp</Impression><Error>\(base)/inline/err?c=[ERRORCODE]</Error>\(inline.inLine)
            <Creatives><Creative><Linear><Duration>00:00:10</Duration>
            <TrackingEvents><Tracking event="start">\(base)/inline/start</Tracking></TrackingEvents>
            <MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360" bitrate="223">clip.mp4</MediaFile></MediaFiles>
            \(inline.linear)</Linear></Creative>\(inline.creatives)</Creatives></InLine></Ad></VAST>
            """)
        kit.tag("\(base)/wrapper.xml", """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>w1</AdSystem>
            <VASTAdTagURI><![CDATA[\(base)/sub/]]></VASTAdTagURI>
            <Impression>\(base)/w1/imp</Impression><Error>\(base)/w1/err?c=[ERRORCODE]</Error>\(wrapper.inLine)
            <Creatives><Creative><Linear>\(wrapper.linear)</Linear></Creative>\(wrapper.creatives)
            <Creative><CompanionAds><Companion><TrackingEvents><Tracking event="creativeView">\(base)/w1/anycv</Tracking></TrackingEvents>
            <CompanionClickTracking>\(base)/w1/anycct</CompanionClickTracking></Companion></CompanionAds></Creative></Creatives>
            </Wrapper></Ad></VAST>
            """)
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", "\(base)/wrapper.xml", "--json", "--no-media"])
        #expect(inspection.outcome == .completed)
        func urls(_ event: String) -> [String] {
            inspection.tracking.filter { $0.event == event }.map { "\($0.source) \(URL(string: $0.url)?.path ?? "")" }
        }
        #expect(urls("companion.creativeView") == ["wrapper 1 (w1) /w1/cv", "inline /inline/cv", "wrapper 1 (w1) /w1/anycv"])
        #expect(urls("companion.clickTracking") == ["wrapper 1 (w1) /w1/cct", "inline /inline/cct", "wrapper 1 (w1) /w1/anycct"])
        #expect(urls("icon.viewTracking") == ["wrapper 1 (w1) /w1/iconview", "inline /inline/iconview"])
        #expect(urls("icon.clickTracking") == ["wrapper 1 (w1) /w1/iconclick", "inline /inline/iconclick"])
        #expect(urls("verificationNotExecuted") == ["wrapper 1 (w1) /w1/vne", "inline /inline/vne"])
    }
}
