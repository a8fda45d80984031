import Foundation
import Testing
import TestSupport
@testable import VAST

/// Issue 15, item 10: missing required elements and attributes are warnings, as a validator (the IAB XSDs, the VAST
/// 4.3 text, the peer vast-client-js's `requiredValues`) would give them; a requirement a version introduced is not
/// held against an older tag; a wrapper without `VASTAdTagURI` still says what else is wrong.
@Suite("Required elements and attributes")
struct RequiredValuesTests {
    /// A VAST 4.2 InLine with every required element and attribute, and one of each element that has some.
    static let completeInLine = """
        <VAST version="4.2"><Ad id="a"><InLine>
          <AdSystem>sys</AdSystem><AdTitle>title</AdTitle><AdServingId>srv</AdServingId>
          <Impression><![CDATA[https://x.example/imp]]></Impression>
          <Category authority="https://iabtechlab.com">IAB1-1</Category>
          <Pricing model="cpm" currency="USD">1.00</Pricing>
          <AdVerifications><Verification vendor="v.example-omid">
            <JavaScriptResource apiFramework="omid" browserOptional="true"><![CDATA[https://v.example/v.js]]></JavaScriptResource>
            <ExecutableResource apiFramework="omid" type="android"><![CDATA[https://v.example/v.apk]]></ExecutableResource>
          </Verification></AdVerifications>
          <Creatives>
            <Creative id="linear"><UniversalAdId idRegistry="ad-id.org">UID1</UniversalAdId>
              <Linear><Duration>00:00:10</Duration>
                <TrackingEvents><Tracking event="start">https://x.example/start</Tracking></TrackingEvents>
                <MediaFiles>
                  <MediaFile delivery="progressive" type="video/mp4" width="640" height="360">https://x.example/a.mp4</MediaFile>
                  <Mezzanine delivery="progressive" type="video/mp4" width="1920" height="1080">https://x.example/m.mp4</Mezzanine>
                </MediaFiles>
                <Icons><Icon program="AdChoices" width="20" height="20" xPosition="right" yPosition="top"><StaticResource creativeType="image/png">https://x.example/i.png</StaticResource></Icon></Icons>
              </Linear></Creative>
            <Creative id="companion"><UniversalAdId idRegistry="ad-id.org">UID2</UniversalAdId>
              <CompanionAds><Companion width="390" height="844">
                <StaticResource creativeType="image/png">https://x.example/c.png</StaticResource></Companion></CompanionAds>
            </Creative>
            <Creative id="overlay"><UniversalAdId idRegistry="ad-id.org">UID3</UniversalAdId>
              <NonLinearAds><NonLinear width="300" height="50">
                <HTMLResource><![CDATA[<p>hi</p>]]></HTMLResource></NonLinear></NonLinearAds>
            </Creative>
          </Creatives>
        </InLine></Ad></VAST>
        """

    /// A VAST 4.2 Wrapper with every required element and attribute.
    static let completeWrapper = """
        <VAST version="4.2"><Ad id="w"><Wrapper>
          <AdSystem>wsys</AdSystem>
          <VASTAdTagURI><![CDATA[https://x.example/next.xml]]></VASTAdTagURI>
          <Impression><![CDATA[https://x.example/wimp]]></Impression>
          <Error><![CDATA[https://x.example/werr?c=[ERRORCODE]]]></Error>
          <BlockedAdCategories authority="https://iabtechlab.com">IAB25,IAB26</BlockedAdCategories>
          <Creatives><Creative><Linear><TrackingEvents>
            <Tracking event="midpoint">https://x.example/wmid</Tracking></TrackingEvents></Linear></Creative></Creatives>
        </Wrapper></Ad></VAST>
        """

    /// One missing piece: the text to replace, its replacement, and the one warning it must draw.
    struct Case: Sendable, CustomTestStringConvertible {
        var what: String
        /// The rule of each warning, in order: one per rule the missing piece breaks.
        var rules: [String]
        var replace: String
        var with: String
        var messages: [String]
        var path: String
        var wrapper = false
        var testDescription: String { what }

        init(what: String, rules: [String], replace: String, with: String, message: String? = nil, messages: [String] = [], path: String,
             wrapper: Bool = false) {
            (self.what, self.rules, self.replace, self.with, self.path, self.wrapper) = (what, rules, replace, with, path, wrapper)
            self.messages = message.map { [$0] } ?? messages
        }
    }

    static let inLine = "VAST/Ad[1]/InLine"
    static let linear = "VAST/Ad[1]/InLine/Creatives/Creative[1]/Linear"
    static let cases: [Case] = [
        Case(what: "InLine AdSystem", rules: ["VAST-2.0-inline-adsystem"], replace: "<AdSystem>sys</AdSystem>", with: "",
             message: "<InLine> has no <AdSystem>", path: inLine),
        Case(what: "InLine AdTitle", rules: ["VAST-2.0-inline-adtitle"], replace: "<AdTitle>title</AdTitle>", with: "",
             message: "<InLine> has no <AdTitle>", path: inLine),
        Case(what: "InLine Impression", rules: ["VAST-2.0-inline-impression"], replace: "<Impression><![CDATA[https://x.example/imp]]></Impression>", with: "",
             message: "<InLine> has no <Impression> URL", path: inLine),
        Case(what: "InLine AdServingId (4.1+)", rules: ["VAST-4.1-adservingid-present"], replace: "<AdServingId>srv</AdServingId>", with: "",
             message: "<InLine> has no <AdServingId> (required since VAST 4.1)", path: inLine),
        Case(what: "Category authority", rules: ["VAST-4.0-category-authority"], replace: #"<Category authority="https://iabtechlab.com">"#, with: "<Category>",
             message: "<Category> lacks required attribute(s): authority", path: inLine + "/Category[1]"),
        Case(what: "Pricing model and currency", rules: ["VAST-3.0-pricing-model", "VAST-3.0-pricing-currency"], replace: #"<Pricing model="cpm" currency="USD">"#, with: "<Pricing>",
             messages: ["<Pricing> lacks required attribute(s): model", "<Pricing> lacks required attribute(s): currency"], path: inLine + "/Pricing"),
        Case(what: "Verification vendor", rules: ["VAST-4.1-verification-vendor"], replace: #"<Verification vendor="v.example-omid">"#, with: "<Verification>",
             message: "<Verification> lacks required attribute(s): vendor",
             path: inLine + "/AdVerifications/Verification[1]"),
        Case(what: "Verification resource", rules: ["VAST-4.1-verification-no-resource"],
             replace: #"<JavaScriptResource apiFramework="omid" browserOptional="true"><![CDATA[https://v.example/v.js]]></JavaScriptResource>"#
                + "\n    " + #"<ExecutableResource apiFramework="omid" type="android"><![CDATA[https://v.example/v.apk]]></ExecutableResource>"#,
             with: "",
             message: "<Verification> has none of <JavaScriptResource>, <ExecutableResource> (nothing to run)",
             path: inLine + "/AdVerifications/Verification[1]"),
        Case(what: "JavaScriptResource attributes", rules: ["VAST-4.1-js-resource-apiframework", "VAST-4.3-js-resource-browser-optional"], replace: #"<JavaScriptResource apiFramework="omid" browserOptional="true">"#,
             with: "<JavaScriptResource>",
             messages: ["<JavaScriptResource> lacks required attribute(s): apiFramework", "<JavaScriptResource> lacks required attribute(s): browserOptional"],
             path: inLine + "/AdVerifications/Verification[1]/JavaScriptResource[1]"),
        Case(what: "ExecutableResource attributes", rules: ["VAST-4.1-exec-resource-apiframework", "VAST-4.1-exec-resource-type"], replace: #"<ExecutableResource apiFramework="omid" type="android">"#,
             with: "<ExecutableResource>",
             messages: ["<ExecutableResource> lacks required attribute(s): apiFramework", "<ExecutableResource> lacks required attribute(s): type"],
             path: inLine + "/AdVerifications/Verification[1]/ExecutableResource[1]"),
        Case(what: "Creative UniversalAdId (4.0+)", rules: ["VAST-4.0-universaladid-present"], replace: #"<UniversalAdId idRegistry="ad-id.org">UID2</UniversalAdId>"#, with: "",
             message: "<Creative> has no <UniversalAdId>", path: inLine + "/Creatives/Creative[2]"),
        Case(what: "UniversalAdId idRegistry", rules: ["VAST-4.0-universaladid-idregistry"], replace: #"<UniversalAdId idRegistry="ad-id.org">UID1"#, with: "<UniversalAdId>UID1",
             message: "<UniversalAdId> lacks required attribute(s): idRegistry",
             path: inLine + "/Creatives/Creative[1]/UniversalAdId[1]"),
        Case(what: "Tracking event", rules: ["VPLAY-vast-tracking-event-missing"], replace: #"<Tracking event="start">"#, with: "<Tracking>",
             message: "<Tracking> lacks required attribute(s): event; ignored", path: linear + "/TrackingEvents/Tracking"),
        Case(what: "Linear Duration", rules: ["VAST-2.0-linear-duration"], replace: "<Duration>00:00:10</Duration>", with: "",
             message: "<Linear> has no <Duration>", path: linear),
        Case(what: "MediaFiles MediaFile", rules: ["VAST-2.0-linear-mediafiles"],
             replace: #"<MediaFile delivery="progressive" type="video/mp4" width="640" height="360">https://x.example/a.mp4</MediaFile>"#,
             with: "", message: "<MediaFiles> has no <MediaFile> with a URL", path: linear + "/MediaFiles"),
        Case(what: "MediaFile attributes", rules: ["VAST-2.0-mediafile-delivery", "VAST-2.0-mediafile-type", "VAST-2.0-mediafile-dimensions"], replace: #"<MediaFile delivery="progressive" type="video/mp4" width="640" height="360">"#,
             with: "<MediaFile>", messages: ["<MediaFile> lacks required attribute(s): delivery", "<MediaFile> lacks required attribute(s): type", "<MediaFile> lacks required attribute(s): width, height"],
             path: linear + "/MediaFiles/MediaFile[1]"),
        Case(what: "Mezzanine attributes (4.1+)", rules: ["VAST-4.1-mezzanine-delivery", "VAST-4.1-mezzanine-type", "VAST-4.1-mezzanine-width", "VAST-4.1-mezzanine-height"], replace: #"<Mezzanine delivery="progressive" type="video/mp4" width="1920" height="1080">"#,
             with: "<Mezzanine>", messages: ["<Mezzanine> lacks required attribute(s): delivery", "<Mezzanine> lacks required attribute(s): type", "<Mezzanine> lacks required attribute(s): width", "<Mezzanine> lacks required attribute(s): height"],
             path: linear + "/MediaFiles/Mezzanine[1]"),
        Case(what: "Icons Icon", rules: ["VPLAY-vast-icons-empty"], replace: #"<Icons><Icon program="AdChoices" width="20" height="20" xPosition="right" yPosition="top"><StaticResource creativeType="image/png">https://x.example/i.png</StaticResource></Icon></Icons>"#,
             with: "<Icons></Icons>", message: "<Icons> has no <Icon>", path: linear + "/Icons"),
        Case(what: "Icon resource", rules: ["VAST-3.0-icon-resource"], replace: #"<StaticResource creativeType="image/png">https://x.example/i.png</StaticResource>"#,
             with: "", message: "<Icon> has none of <StaticResource>, <IFrameResource>, <HTMLResource> (nothing to show)",
             path: linear + "/Icons/Icon[1]"),
        Case(what: "StaticResource creativeType", rules: ["VPLAY-vast-staticresource-creativetype"], replace: #"<StaticResource creativeType="image/png">https://x.example/c.png"#,
             with: "<StaticResource>https://x.example/c.png",
             message: "<StaticResource> lacks required attribute(s): creativeType",
             path: inLine + "/Creatives/Creative[2]/CompanionAds/Companion[1]/StaticResource[1]"),
        Case(what: "Companion width and height", rules: ["VAST-2.0-companion-dimensions"], replace: #"<Companion width="390" height="844">"#, with: "<Companion>",
             message: "<Companion> lacks required attribute(s): width, height",
             path: inLine + "/Creatives/Creative[2]/CompanionAds/Companion[1]"),
        Case(what: "Companion resource", rules: ["VAST-2.0-companion-resource"], replace: #"<StaticResource creativeType="image/png">https://x.example/c.png</StaticResource>"#,
             with: "", message: "<Companion> has none of <StaticResource>, <IFrameResource>, <HTMLResource> (nothing to show)",
             path: inLine + "/Creatives/Creative[2]/CompanionAds/Companion[1]"),
        Case(what: "NonLinear width and height", rules: ["VAST-2.0-nonlinear-dimensions"], replace: #"<NonLinear width="300" height="50">"#, with: "<NonLinear>",
             message: "<NonLinear> lacks required attribute(s): width, height",
             path: inLine + "/Creatives/Creative[3]/NonLinearAds/NonLinear[1]"),
        Case(what: "NonLinear resource", rules: ["VAST-2.0-nonlinear-resource"], replace: "<HTMLResource><![CDATA[<p>hi</p>]]></HTMLResource>", with: "",
             message: "<NonLinear> has none of <StaticResource>, <IFrameResource>, <HTMLResource> (nothing to show)",
             path: inLine + "/Creatives/Creative[3]/NonLinearAds/NonLinear[1]"),
        Case(what: "Wrapper AdSystem", rules: ["VAST-2.0-wrapper-adsystem"], replace: "<AdSystem>wsys</AdSystem>", with: "",
             message: "<Wrapper> has no <AdSystem>", path: "VAST/Ad[1]/Wrapper", wrapper: true),
        Case(what: "Wrapper Impression", rules: ["VAST-2.0-wrapper-impression"], replace: "<Impression><![CDATA[https://x.example/wimp]]></Impression>", with: "",
             message: "<Wrapper> has no <Impression> URL", path: "VAST/Ad[1]/Wrapper", wrapper: true),
        Case(what: "BlockedAdCategories authority", rules: ["VAST-4.1-blockedadcategories-no-authority"], replace: #"<BlockedAdCategories authority="https://iabtechlab.com">"#,
             with: "<BlockedAdCategories>", message: "<BlockedAdCategories> lacks required attribute(s): authority",
             path: "VAST/Ad[1]/Wrapper/BlockedAdCategories[1]", wrapper: true),
    ]

    static func missing(_ document: VASTDocument) -> [VASTWarning] {
        document.warnings.filter { $0.kind == .missingRecommended }
    }

    @Test func completeTags_drawNoMissingWarning() throws {
        #expect(Self.missing(try Fixture.parse(Self.completeInLine)) == [])
        #expect(Self.missing(try Fixture.parse(Self.completeWrapper)) == [])
    }

    /// Each missing piece draws exactly its one warning, named and placed.
    @Test(arguments: cases)
    func eachMissingPiece_isItsOwnWarning(_ c: Case) throws {
        let base = c.wrapper ? Self.completeWrapper : Self.completeInLine
        let xml = base.replacingOccurrences(of: c.replace, with: c.with)
        try #require(xml != base, "the case's text is in the base tag")
        #expect(Self.missing(try Fixture.parse(xml)).map { "\($0.rule) at \($0.path ?? ""): \($0.message)" }
                == zip(c.rules, c.messages).map { "\($0) at \(c.path): \($1)" })
    }

    @Test func inLineWithoutCreatives_andCreativesWithoutCreative_areWarnings() throws {
        let head = #"<VAST version="2.0"><Ad><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression>https://x.example/i</Impression>"#
        let none = try Fixture.parse(head + "</InLine></Ad></VAST>")
        #expect(Self.missing(none) == [VASTWarning(.missingRecommended, .inLineCreatives, "<InLine> has no <Creatives>", path: "VAST/Ad[1]/InLine")])
        let empty = try Fixture.parse(head + "<Creatives></Creatives></InLine></Ad></VAST>")
        #expect(Self.missing(empty) == [VASTWarning(.missingRecommended, .inLineCreatives, "<Creatives> has no <Creative>", path: "VAST/Ad[1]/InLine/Creatives")])
    }

    /// A requirement is not held against a tag older than the version that made it: a VAST 2.0 or 3.0 tag has no
    /// AdServingId (4.1), UniversalAdId (4.0) or OM verification attributes (4.1, here in an `<Extension>` as VAST 2/3
    /// tags carry it), and a 4.0 Mezzanine had no attributes.
    @Test(arguments: ["2.0", "3.0"])
    func olderVersions_drawNoLaterRequirement(_ version: String) throws {
        let xml = """
            <VAST version="\(version)"><Ad><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle>
            <Impression>https://x.example/i</Impression>
            <Extensions><Extension type="AdVerifications"><AdVerifications><Verification>
              <JavaScriptResource><![CDATA[https://v.example/v.js]]></JavaScriptResource>
            </Verification></AdVerifications></Extension></Extensions>
            <Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles>
              <MediaFile delivery="progressive" type="video/mp4" width="640" height="360">https://x.example/a.mp4</MediaFile>
            </MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>
            """
        let document = try Fixture.parse(xml)
        #expect(document.ads.first?.inLine?.verifications.count == 1, "the verification is read")
        #expect(Self.missing(document) == [])
        // The same tag declared 4.2 draws the later requirements.
        let later = Self.missing(try Fixture.parse(xml.replacingOccurrences(of: "version=\"\(version)\"", with: "version=\"4.2\"")))
        #expect(later.map(\.message).sorted() == [
            "<Creative> has no <UniversalAdId>", "<InLine> has no <AdServingId> (required since VAST 4.1)",
            "<JavaScriptResource> lacks required attribute(s): apiFramework", "<JavaScriptResource> lacks required attribute(s): browserOptional",
            "<Verification> lacks required attribute(s): vendor",
        ])
    }

    @Test func vast40Mezzanine_withoutAttributes_isNotAWarning() throws {
        let xml = Self.completeInLine.replacingOccurrences(of: "version=\"4.2\"", with: "version=\"4.0\"")
            .replacingOccurrences(of: #"<Mezzanine delivery="progressive" type="video/mp4" width="1920" height="1080">"#, with: "<Mezzanine>")
        #expect(Self.missing(try Fixture.parse(xml)) == [])
    }

    /// Many faults of one kind stay one warning per element, not one per occurrence of the same element path.
    @Test func repeatedFaults_areOneWarningPerElement() throws {
        let tracking = String(repeating: "<Tracking>https://x.example/t</Tracking>", count: 50)
        let xml = Self.completeInLine.replacingOccurrences(of: "<TrackingEvents>", with: "<TrackingEvents>" + tracking)
            .replacingOccurrences(of: #"<Category authority="https://iabtechlab.com">IAB1-1</Category>"#,
                                  with: "<Category>IAB1-1</Category><Category>IAB1-2</Category>")
        let messages = Self.missing(try Fixture.parse(xml)).map { "\($0.path ?? ""): \($0.message)" }
        #expect(messages == [
            "VAST/Ad[1]/InLine/Category[1]: <Category> lacks required attribute(s): authority",
            "VAST/Ad[1]/InLine/Category[2]: <Category> lacks required attribute(s): authority",
            "\(Self.linear)/TrackingEvents/Tracking: <Tracking> lacks required attribute(s): event; ignored",
        ])
    }

    /// A wrapper without `VASTAdTagURI` is still a broken ad (101, with its own and the root Error URLs, as before),
    /// and the parse still reports the rest of what is wrong with the tag.
    @Test func wrapperWithoutTagURI_stillReportsItsOtherFaults() throws {
        let xml = Self.completeWrapper
            .replacingOccurrences(of: "<VASTAdTagURI><![CDATA[https://x.example/next.xml]]></VASTAdTagURI>", with: "")
            .replacingOccurrences(of: "<Impression><![CDATA[https://x.example/wimp]]></Impression>", with: "")
            .replacingOccurrences(of: #"<Tracking event="midpoint">"#, with: "<Tracking>")
        var warnings: [VASTWarning] = []
        do {
            _ = try VASTParser().parse(Data(xml.utf8), warnings: &warnings)
            Issue.record("parsed a tag whose only ad is broken")
        } catch {
            #expect(error.code == .schemaValidation)
            #expect(error.message.contains("<Wrapper> has no <VASTAdTagURI>"))
            #expect(error.errorURLs.map(\.url) == ["https://x.example/werr?c=[ERRORCODE]"])
        }
        #expect(warnings.contains { $0.kind == .invalidAd && $0.message.contains("<Wrapper> has no <VASTAdTagURI>") })
        #expect(warnings.contains(VASTWarning(.missingRecommended, .wrapperImpression, "<Wrapper> has no <Impression> URL", path: "VAST/Ad[1]/Wrapper")))
        #expect(warnings.contains { $0.message == "<Tracking> lacks required attribute(s): event; ignored" })
    }

    /// Through the resolver (what `inspect` shows): the failed document's warnings are in the resolution, at its hop.
    @Test func wrapperWithoutTagURI_warningsReachTheResolution() async throws {
        let xml = Self.completeWrapper
            .replacingOccurrences(of: "<VASTAdTagURI><![CDATA[https://x.example/next.xml]]></VASTAdTagURI>", with: "")
            .replacingOccurrences(of: "<AdSystem>wsys</AdSystem>", with: "")
        let resolution = await Fixture.resolver(InMemoryTagFetcher()).resolve(data: Data(xml.utf8), tagURL: "https://x.example/tag.xml")
        #expect(resolution.topLevelError?.code == .schemaValidation)
        #expect(resolution.warnings.contains(VASTWarning(.missingRecommended, .wrapperAdSystem, "<Wrapper> has no <AdSystem>", path: "hop 0: VAST/Ad[1]/Wrapper")))
        #expect(resolution.warnings.contains { $0.kind == .invalidAd })
    }
}
