import Foundation
import Testing
@testable import VAST
import XMLReading

@Suite("Parser errors and warnings")
struct ParserErrorTests {
    @Test(arguments: ["hello, not xml", "<VAST version=\"4.1\"><Ad><InLine>", "<VAST version='4.1'><Ad></VAST>",
                      "<?xml version=\"1.0\"?>"])
    func malformedInput_isError100(_ xml: String) {
        #expect(Fixture.parseError(xml)?.code == .xmlParse)
    }

    /// An empty answer is how ad servers say "no ad" (IMA reports it as 303); it was XML error 100.
    @Test(arguments: ["", " ", "\n\r\t ", "\u{FEFF}", "\u{FEFF}  \n"])
    func emptyInput_isNoAd303_not100(_ xml: String) {
        let error = Fixture.parseError(xml)
        #expect(error?.code == .noAdAfterWrapper)
        #expect(error?.message.contains("empty") == true)
    }

    /// libxml2's error numbers in words (the message said "XML error 5").
    @Test(arguments: [("<VAST version=\"4.1\"><Ad><InLine>", "ends before its elements are closed"),
                      ("<VAST version=\"4.1\" a=\"1\" a=\"2\"></VAST>", "attribute appears twice"),
                      ("<VAST version=\"4.1\">&foo</VAST>", "missing its ';'")])
    func xmlErrors_sayWhatIsWrong(_ xml: String, _ words: String) {
        let error = Fixture.parseError(xml)
        #expect(error?.code == .xmlParse)
        #expect(error?.message.contains(words) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("at line 1") == true)
    }

    @Test func invalidUTF8InAnElementName_isError100_notAFoundationCrash() {
        // Regression: one flipped bit (`<Tr\u{E1}cking`) made FoundationXML trap inside _NSXMLParserStartElementNs.
        var bytes = Array(Fixture.inLine().utf8)
        let i = bytes.firstIndex(of: UInt8(ascii: "k"))!  // the "k" of the first <Tracking>
        bytes[i - 2] = 0xE1
        #expect(Fixture.parseError(Data(bytes))?.code == .xmlParse)
    }

    @Test func latin1DeclaredDocument_isDecodedAndParses() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + Fixture.inLine().replacingOccurrences(of: "Inline ad", with: "Caf\u{E9}")
        let document = try VASTParser().parse(xml.data(using: .isoLatin1)!)
        #expect(document.ads.first?.inLine?.adTitle == "Caf\u{E9}")
    }

    @Test func utf16Document_isDecodedAndParses() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + Fixture.inLine()
        let document = try VASTParser().parse(xml.data(using: .utf16)!)
        #expect(document.ads.count == 1)
    }

    /// Finding 14: `3C 00` without a byte-order mark is UTF-16 little-endian (XML 1.0 Appendix F); it used to be
    /// decoded as big-endian and refused, while the big-endian twin parsed.
    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian])
    func utf16WithoutByteOrderMark_isDecodedInEitherByteOrder(_ encoding: String.Encoding) throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + Fixture.inLine().replacingOccurrences(of: "Inline ad", with: "Caf\u{E9}")
        let data = try #require(xml.data(using: encoding))
        #expect(data.prefix(2) == Data([0x3C, 0x00]) || data.prefix(2) == Data([0x00, 0x3C]), "no BOM")
        let document = try VASTParser().parse(data)
        #expect(document.ads.first?.inLine?.adTitle == "Caf\u{E9}")
    }

    /// Issue 37, item 21: UTF-32, with its byte-order mark or without (XML 1.0 Appendix F), is decoded like UTF-16; it
    /// was refused as "text before the root element" (with the mark) or with a libxml2 message (without).
    @Test(arguments: [(String.Encoding.utf32LittleEndian, true), (.utf32LittleEndian, false), (.utf32BigEndian, true), (.utf32BigEndian, false)])
    func utf32_isDecodedInEitherByteOrder_withOrWithoutItsMark(_ encoding: String.Encoding, _ marked: Bool) throws {
        let xml = Fixture.inLine().replacingOccurrences(of: "Inline ad", with: "Caf\u{E9}")
        var data = try #require(xml.data(using: encoding))
        if marked { data = Data(encoding == .utf32LittleEndian ? [0xFF, 0xFE, 0x00, 0x00] : [0x00, 0x00, 0xFE, 0xFF]) + data }
        #expect(try VASTParser().parse(data).ads.first?.inLine?.adTitle == "Caf\u{E9}")
    }

    /// Issue 37, item 21: a byte-order mark twice is named for what it is, not "text before the root element".
    @Test func twoByteOrderMarks_areNamedAsSuch() {
        let error = Fixture.parseError(Data([0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF] + Array(Fixture.inLine().utf8)))
        #expect(error?.code == .xmlParse)
        #expect(error?.message.contains("two byte-order marks") == true, "\(String(describing: error?.message))")
    }

    /// Finding 13: Foundation's parser on Linux stops at the end of the root element and accepted what followed.
    @Test(arguments: ["<VAST version=\"4.1\"/>", "<garbage", "junk & < >", "text", "</VAST>", "<![CDATA[x]]>"])
    func contentAfterTheRootElement_isError100(_ tail: String) {
        let error = Fixture.parseError(Fixture.inLine() + tail)
        #expect(error?.code == .xmlParse)
        #expect(error?.message.contains("after the root element") == true || error?.message.contains("outside the root") == true
                || error?.message.contains("end tag without") == true || error?.message.contains("unterminated") == true)
    }

    @Test func commentsProcessingInstructionsAndWhitespaceAroundTheRoot_areFine() throws {
        let xml = "\u{FEFF}<?xml version=\"1.0\"?>\n<!-- before -->\n" + Fixture.inLine() + "\n<!-- after --><?pi after?>\r\n\t "
        #expect(try Fixture.parse(xml).ads.count == 1)
    }

    /// Finding 15: `Extension.rawXML` is the element's bytes, not a re-serialisation (which put all text before
    /// the children, dropped comments, turned CDATA into escaped text and sorted the attributes).
    @Test func extensionRawXML_isTheElementsExactBytes() throws {
        let raw = """
            <Extension type="html" z="1" a="2">before<b>bold</b> after <![CDATA[<p class="x">&amp; raw</p>]]><!-- a note -->
              <vendor:data xmlns:vendor="urn:v">&lt;kept&gt;</vendor:data></Extension>
            """
        let document = try Fixture.parse(Fixture.inLine(extraInLine: "<Extensions>\(raw)<Extension type=\"two\"/></Extensions>"))
        let extensions = try #require(document.ads.first?.inLine?.extensions)
        #expect(extensions.map(\.rawXML) == [raw, "<Extension type=\"two\"/>"])
    }

    @Test func extensionRawXML_ofAUTF16Document_isTheElementInUTF8() throws {
        let raw = "<Extension type=\"t\"><x>Caf\u{E9}</x><![CDATA[c]]></Extension>"
        let xml = Fixture.inLine(extraInLine: "<Extensions>\(raw)</Extensions>")
        let document = try VASTParser().parse(try #require(("\u{FEFF}" + xml).data(using: .utf16LittleEndian)))
        #expect(document.ads.first?.inLine?.extensions.first?.rawXML == raw)
    }

    @Test func adWithNeitherInLineNorWrapper_isError101_wherePeerCrashes() {
        let error = Fixture.parseError(#"<VAST version="4.1"><Ad id="x"></Ad></VAST>"#)
        #expect(error?.code == .schemaValidation)
    }

    @Test func adWithLowercaseInline_isError101() {
        let error = Fixture.parseError(#"<VAST version="4.1"><Ad><inline><AdSystem>a</AdSystem></inline></Ad></VAST>"#)
        #expect(error?.code == .schemaValidation)
        #expect(error?.message.contains("<inline>") == true)
    }

    @Test func wrapperWithoutVASTAdTagURI_isError101() {
        let error = Fixture.parseError(#"<VAST version="4.1"><Ad><Wrapper><AdSystem>a</AdSystem></Wrapper></Ad></VAST>"#)
        #expect(error?.code == .schemaValidation)
    }

    /// Finding 11b: the broken wrapper's own `<Error>` (and a mis-cased InLine's) get the 101, then the root's.
    @Test func brokenAdsOwnErrorURLs_andTheRootErrors_carryThe101() {
        let error = Fixture.parseError("""
            <VAST version="4.1"><Error>https://root.example/e?c=[ERRORCODE]</Error>
            <Ad id="w"><Wrapper><AdSystem>a</AdSystem><Error>https://w.example/e?c=[ERRORCODE]</Error></Wrapper></Ad>
            <Ad id="i"><inline><Error>https://i.example/e</Error></inline></Ad></VAST>
            """)
        #expect(error?.code == .schemaValidation)
        #expect(error?.errorURLs.map(\.url) == ["https://w.example/e?c=[ERRORCODE]", "https://i.example/e",
                                                "https://root.example/e?c=[ERRORCODE]"])
    }

    @Test func rootThatIsNotVAST_isError101() {
        #expect(Fixture.parseError("<html><body/></html>")?.code == .schemaValidation)
    }

    @Test func oneBrokenAdAmongGoodOnes_isSkippedWithAWarning() throws {
        let xml = #"<VAST version="4.1"><Ad id="bad"/>"#
            + Fixture.inLine().components(separatedBy: #"<VAST version="4.1">"#)[1]
        let document = try Fixture.parse(xml)
        #expect(document.ads.map(\.id) == ["inline"])
        #expect(document.warnings.contains { $0.kind == .invalidAd })
        #expect(document.invalidAds.map(\.id) == ["bad"])
        #expect(document.invalidAds.first?.error.code == .schemaValidation)
    }

    @Test func vast1VideoAdServingTemplate_isError102() {
        let error = Fixture.parseError("<VideoAdServingTemplate><Ad><InLine/></Ad></VideoAdServingTemplate>")
        #expect(error?.code == .unsupportedVersion)
    }

    @Test(arguments: ["5.0", "0.9", "10"])
    func vastRootWithUnsupportedMajorVersion_isError102(_ version: String) {
        #expect(Fixture.parseError(Fixture.inLine(version: version))?.code == .unsupportedVersion)
    }

    @Test func vastRootWithVersion1_isAcceptedWithAWarning() throws {
        let document = try Fixture.parse(Fixture.inLine(version: "1.0"))
        #expect(document.ads.count == 1)
        #expect(document.warnings.contains { $0.kind == .version })
    }

    @Test func emptyVASTWithRootError_isError303CarryingTheRootErrorURLs() {
        let error = Fixture.parseError(#"<VAST version="4.1"><Error><![CDATA[ https://ads.example/noad?e=[ERRORCODE] ]]></Error></VAST>"#)
        #expect(error?.code == .noAdAfterWrapper)
        #expect(error?.errorURLs.map(\.url) == ["https://ads.example/noad?e=[ERRORCODE]"])
        #expect(error?.errorURLs.first?.source == .response(depth: 0, tagURL: nil))
    }

    @Test func inputOverTheSizeCap_isError100() {
        let big = Data(Fixture.inLine().utf8)
        #expect(Fixture.parseError(big, limits: ParserLimits(maxBytes: 100))?.code == .xmlParse)
    }

    @Test func nestingDeeperThanTheCap_isError100() {
        let deep = "<VAST version=\"4.1\">" + String(repeating: "<a>", count: 100) + String(repeating: "</a>", count: 100) + "</VAST>"
        let error = Fixture.parseError(deep)
        #expect(error?.code == .xmlParse)
        #expect(error?.message.contains("deeper") == true)
    }

    @Test func unknownEventNotUsedAndUnknownMacros_areWarningsNotErrors() throws {
        let extra = """
            <Tracking event="first-quartile">https://x.example/fq</Tracking>
            <Tracking event="notUsed">https://x.example/nu?t=[TIMESTAMP]&amp;z=[NOTAMACRO]&amp;c=[cachebusting]</Tracking>
            """
        let xml = Fixture.inLine().replacingOccurrences(of: "<TrackingEvents>", with: "<TrackingEvents>" + extra)
        let document = try Fixture.parse(xml)
        let kinds = document.warnings.map(\.kind)
        #expect(kinds.contains(.unknownTrackingEvent))
        #expect(kinds.contains(.notUsedEvent))
        let macros = document.warnings.filter { $0.kind == .unknownMacro }.map(\.message)
        #expect(macros.contains { $0.contains("[NOTAMACRO]") })
        #expect(macros.contains { $0.contains("[cachebusting]") })
        #expect(!macros.contains { $0.contains("[TIMESTAMP]") })
        // The unknown event is kept (inspect shows it) but is not a known name.
        let linear = try #require(document.ads.first?.inLine?.linearCreative?.linear)
        #expect(linear.tracking(for: "first-quartile").first?.event.isKnown == false)
    }

    /// `[RANDOM]`, `[random]` and `%%RANDOM%%` are expanded (like `[CACHEBUSTING]`), so they are not "unknown"; the
    /// warning says they are not VAST 4.x macros and how they are filled.
    @Test func legacyCacheBusters_areNotedAsExpanded_notAsUnknown() throws {
        let extra = """
            <Tracking event="midpoint">https://x.example/m?r=[RANDOM]&amp;s=[random]&amp;t=%%RANDOM%%</Tracking>
            """
        let xml = Fixture.inLine().replacingOccurrences(of: "<TrackingEvents>", with: "<TrackingEvents>" + extra)
        let macros = try Fixture.parse(xml).warnings.filter { $0.kind == .unknownMacro }.map(\.message)
        #expect(macros.filter { $0.contains("expanded per request like [CACHEBUSTING]") }.count == 2, "\(macros)")
        #expect(!macros.contains { $0.hasSuffix("is not a VAST 4.x macro") && $0.contains("RANDOM") }, "\(macros)")
    }

    /// VAST 1's wrapper form, still served by older ad servers, is followed like `<VASTAdTagURI>`, with a note.
    @Test func legacyVASTAdTagURLWrapper_isFollowed() throws {
        let document = try Fixture.parse("""
            <VAST version="2.0"><Ad id="w"><Wrapper><AdSystem>old</AdSystem>
            <VASTAdTagURL><URL><![CDATA[https://ads.example/inline.xml]]></URL></VASTAdTagURL>
            <Impression>https://x.example/i</Impression></Wrapper></Ad></VAST>
            """)
        guard case let .wrapper(wrapper) = try #require(document.ads.first).content else {
            Issue.record("not a wrapper: \(document.ads)")
            return
        }
        #expect(wrapper.vastAdTagURI == "https://ads.example/inline.xml")
        #expect(document.warnings.contains { $0.kind == .version && $0.message.contains("VASTAdTagURL") })
    }

    /// `<BlockedAdCategories>` may appear more than once and holds a comma-separated list per authority (VAST 4.3
    /// §3.19.2); only the first element was read, as one code. `[BLOCKEDADCATEGORIES]` is filled from these.
    @Test func blockedAdCategories_everyElementIsRead_codeByCode() throws {
        let document = try Fixture.parse(Fixture.wrapper(adSystem: "w", tagURI: "https://x.example/next.xml", extra: """
            <BlockedAdCategories authority="https://iabtechlab.com/a"> IAB25, IAB26-3 </BlockedAdCategories>
            <BlockedAdCategories authority="https://iabtechlab.com/b">IAB7-39</BlockedAdCategories>
            <BlockedAdCategories><Category authority="https://iabtechlab.com/c">IAB9-9</Category></BlockedAdCategories>
            """))
        let blocked = try #require(document.ads.first?.wrapper).blockedAdCategories
        #expect(blocked.map(\.code) == ["IAB25", "IAB26-3", "IAB7-39", "IAB9-9"])
        #expect(blocked.map(\.authority) == ["https://iabtechlab.com/a", "https://iabtechlab.com/a", "https://iabtechlab.com/b",
                                             "https://iabtechlab.com/c"])
    }

    @Test func missingRecommendedFields_areWarnings() throws {
        let document = try Fixture.parse("""
            <VAST version="4.1"><Ad><InLine><Creatives><Creative><Linear>
            <MediaFiles><MediaFile>https://cdn.example/a.mp4</MediaFile></MediaFiles></Linear></Creative></Creatives>
            </InLine></Ad></VAST>
            """)
        let messages = document.warnings.filter { $0.kind == .missingRecommended }.map(\.message)
        #expect(messages.contains { $0.contains("AdSystem") })
        #expect(messages.contains { $0.contains("AdTitle") })
        #expect(messages.contains { $0.contains("Impression") })
        #expect(messages.contains { $0.contains("AdServingId") })
        #expect(messages.contains { $0.contains("Duration") })
        // One warning per rule the bare <MediaFile> breaks: delivery, type, and its size.
        let rules = document.warnings.filter { $0.message.hasPrefix("<MediaFile> lacks") }.map(\.rule)
        #expect(rules == ["VAST-2.0-mediafile-delivery", "VAST-2.0-mediafile-type", "VAST-2.0-mediafile-dimensions"], "\(rules)")
    }

    @Test func namespacePrefixesAndCDATAWhitespace_areTolerated() throws {
        let document = try Fixture.parse("""
            <v:VAST xmlns:v="http://www.iab.com/VAST" version="4.1"><v:Ad id="n"><v:InLine>
            <v:AdSystem>ns</v:AdSystem><v:Impression>
              <![CDATA[   https://ns.example/imp   ]]>
            </v:Impression></v:InLine></v:Ad></v:VAST>
            """)
        #expect(document.ads.first?.inLine?.impressions.first?.url == "https://ns.example/imp")
    }

    @Test func aboutBlankImpression_isKeptButNotFireable() throws {
        let document = try Fixture.parse(Fixture.inLine(impression: "about:blank"))
        let impression = try #require(document.ads.first?.inLine?.impressions.first)
        #expect(impression.url == "about:blank")
        #expect(!impression.isFireable)
    }
}
