import Primitives
import Foundation
import Testing
@testable import VAST

@Suite("IAB VAST samples", .enabled(if: IABSamples.available, IABSamples.absentReason))
struct IABSampleTests {
    @Test func everySampleFile_isListedInTheTruthTable() {
        #expect(IABSamples.allPaths() == IABSampleTruth.all.map(\.path))
    }

    @Test(arguments: IABSampleTruth.all)
    func sample_parses_withTheCountsTheXMLHas(_ truth: IABSampleTruth) throws {
        let data = try IABSamples.data(truth.path)
        guard let expected = truth.counts else {
            #expect(Fixture.parseError(data)?.code == .unsupportedVersion)
            return
        }
        let document = try VASTParser().parse(data)
        let inLines = document.ads.compactMap(\.inLine)
        let wrappers = document.ads.compactMap(\.wrapper)
        let creatives = inLines.flatMap(\.creatives) + wrappers.flatMap(\.creatives)
        let linears = creatives.compactMap(\.linear)
        let companions = creatives.compactMap(\.companionAds).flatMap(\.companions)
        let nonLinearAds = creatives.compactMap(\.nonLinearAds)
        let verifications = inLines.flatMap(\.verifications) + wrappers.flatMap(\.verifications)

        #expect(document.ads.count == expected.ads)
        #expect(inLines.count == expected.inLines)
        #expect(wrappers.count == expected.wrappers)
        #expect(creatives.count == expected.creatives)
        #expect(linears.flatMap(\.mediaFiles).count == expected.mediaFiles)
        #expect(companions.count == expected.companions)
        #expect(verifications.count == expected.verifications)
        #expect(inLines.flatMap(\.impressions).count + wrappers.flatMap(\.impressions).count == expected.impressions)
        #expect(nonLinearAds.flatMap(\.nonLinears).count == expected.nonLinears)

        let allTracking = linears.flatMap(\.tracking) + companions.flatMap(\.tracking)
            + nonLinearAds.flatMap(\.tracking) + verifications.flatMap(\.tracking)
        var perEvent: [String: Int] = [:]
        for t in allTracking { perEvent[t.event.rawValue, default: 0] += 1 }
        #expect(perEvent == expected.trackingPerEvent)
    }

    @Test func vast41InlineLinear_hasItsDocumentedValues() throws {
        let document = try VASTParser().parse(try IABSamples.data("vast4.1/Inline_Linear_Tag-test.xml"))
        let ad = try #require(document.ads.first)
        let inLine = try #require(ad.inLine)
        #expect(ad.id == "20001")
        #expect(ad.sequence == 1)
        #expect(inLine.adSystem == AdSystem(name: "iabtechlab", version: "4.1"))
        #expect(inLine.adServingId == "a532d16d-4d7f-4440-bd29-2ec0e693fc80")
        #expect(inLine.pricing == Pricing(model: "cpm", currency: "USD", value: "25.00"))
        let linear = try #require(inLine.linearCreative?.linear)
        #expect(linear.duration == .seconds(16))
        #expect(linear.tracking(for: .progress).first?.offset == .time(.seconds(10)))
        #expect(linear.videoClicks.clickThrough == ClickURL(id: "blog", url: "https://iabtechlab.com"))
        #expect(linear.mediaFiles.map(\.id) == ["5241", "5244", "5246"])
        #expect(linear.mediaFiles[0] == MediaFile(
            id: "5241", delivery: "progressive", type: "video/mp4", width: 1280, height: 720, codec: "H.264",
            bitrate: 2000, minBitrate: 1500, maxBitrate: 2500, scalable: true, maintainAspectRatio: true,
            url: "https://iab-publicfiles.s3.amazonaws.com/vast/VAST-4.0-Short-Intro.mp4"))
        #expect(inLine.creatives.first?.universalAdIds == [UniversalAdId(idRegistry: "Ad-ID", value: "8465")])
        #expect(inLine.extensions.first?.type == "iab-Count")
        // The raw bytes of the element, CDATA and indentation included.
        let file = String(decoding: try IABSamples.data("vast4.1/Inline_Linear_Tag-test.xml"), as: UTF8.self)
        let raw = try #require(inLine.extensions.first?.rawXML)
        #expect(raw.hasPrefix("<Extension type=\"iab-Count\">") && raw.hasSuffix("</Extension>"))
        #expect(raw.contains("<total_available>\n            <![CDATA[ 2 ]]>\n          </total_available>"))
        #expect(file.contains(raw))
    }

    @Test func vast2VerificationInsideAnExtension_isReadAsAVerification() throws {
        let document = try VASTParser().parse(try IABSamples.data("vast2/Inline_NonLinear_Verification_VAST2.0.xml"))
        let verification = try #require(document.ads.first?.inLine?.verifications.first)
        #expect(verification.vendor == "company.com-omid")
        #expect(verification.javaScriptResources.first?.url == "https://company.com/omid.js")
        #expect(verification.javaScriptResources.first?.browserOptional == true)
        #expect(verification.parameters == "parameter1=value1&parameter2=value2&parameter3=value3")
        #expect(verification.tracking.first?.url == "https://company.com/pixel.jpg?error=[REASON]")
    }

    @Test func closedCaptionsMezzanineAndViewableSamples_keepTheirElements() throws {
        let cc = try VASTParser().parse(try IABSamples.data("vast4.1/Closed_Caption_Test.xml"))
        #expect(cc.ads.first?.inLine?.linearCreative?.linear?.closedCaptionFiles.isEmpty == false)
        let mezz = try VASTParser().parse(try IABSamples.data("vast4.1/SSAI_stitching_mezzanine_file_support-test.xml"))
        #expect(mezz.ads.first?.inLine?.linearCreative?.linear?.mezzanines.count == 1)
        let viewable = try VASTParser().parse(try IABSamples.data("vast4.1/Viewable_Impression-test.xml"))
        let v = try #require(viewable.ads.first?.wrapper?.viewableImpression)
        #expect((v.viewable.count, v.notViewable.count, v.viewUndetermined.count) == (1, 1, 1))
    }

    /// The IAB samples' missing required values, found by reading the files: the 4.0 NonLinear has no width/height,
    /// the 4.1 verifications (declared 4.1, written like 4.0's) have no vendor, apiFramework or browserOptional.
    /// Every other sample, VAST 2 and 3 included, draws none: the checks give no false positive on real tags.
    static let missingRequiredValues: [String: [String]] = [
        "vast4.0/Inline_Non-Linear_Tag-test.xml": ["<NonLinear> lacks required attribute(s): width, height"],
        "vast4.1/Ad_Verification-test.xml": [
            "<Verification> lacks required attribute(s): vendor",
            "<JavaScriptResource> lacks required attribute(s): apiFramework", "<JavaScriptResource> lacks required attribute(s): browserOptional",
            "<Verification> lacks required attribute(s): vendor",
            "<JavaScriptResource> lacks required attribute(s): apiFramework", "<JavaScriptResource> lacks required attribute(s): browserOptional",
        ],
    ]

    @Test(arguments: IABSampleTruth.all.filter { $0.counts != nil })
    func sample_missingRequiredValues_areTheOnesTheFileHas(_ truth: IABSampleTruth) throws {
        let document = try VASTParser().parse(try IABSamples.data(truth.path))
        let messages = document.warnings.filter { $0.kind == .missingRecommended }.map(\.message)
        #expect(messages == Self.missingRequiredValues[truth.path, default: []])
    }

    static let wrapperSamples = ["vast3/Wrapper_Tag-test.xml", "vast4.0/Wrapper_Tag-test.xml",
                                 "vast4.0/Viewable_Impression-test.xml", "vast4.1/Wrapper_Tag-test.xml",
                                 "vast4.1/Viewable_Impression-test.xml"]

    @Test(arguments: wrapperSamples)
    func wrapperSample_resolvesThroughTheURLMapToItsInline(_ path: String) async throws {
        let base = "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/VAST_Samples/master/"
        let fetcher = URLMapFetcher(mappings: [
            URLMapping(prefix: base + "VAST%203.0%20Samples/", directory: IABSamples.directory.appendingPathComponent("vast3")),
            URLMapping(prefix: base + "VAST%204.0%20Samples/", directory: IABSamples.directory.appendingPathComponent("vast4.0")),
        ])
        let resolution = await Fixture.resolver(fetcher).resolve(data: try IABSamples.data(path), tagURL: "file:" + path)
        #expect(resolution.failures.isEmpty, "\(resolution.failures)")
        let ad = try #require(resolution.ads.first)
        #expect(resolution.ads.count == 1)
        #expect(ad.wrappers.count == 1)
        #expect(resolution.hops.count == 2)
        #expect(resolution.hops.last?.outcome == .vast(adCount: 1))
        // One impression from the wrapper, one from the inline, outermost first.
        #expect(ad.impressions.map(\.source) == [ad.wrappers[0].source, .inline])
        #expect(ad.errorURLs.count == 2)
        #expect(resolution.defaultAd != nil)
        // The wrapper's companion (it has a resource) is added to the inline's.
        #expect(ad.companions.contains { $0.source != .inline } == path.contains("Wrapper_Tag"))
        if path.contains("Viewable") {
            #expect(ad.viewable.count == 1)
            #expect(ad.tracking(for: .start).map(\.source) == [ad.wrappers[0].source, .inline])
        }
    }
}
