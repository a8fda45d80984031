import Foundation
import Testing
@testable import VAST

/// VMAP 1.0.1 as real documents write it: every timeOffset form, the three namespaces, both inline element names,
/// and what is refused.
@Suite struct VMAPParserTests {
    static let inlineVAST = #"<VAST version="4.1"><Ad id="a"><InLine><AdSystem>s</AdSystem><AdTitle>t</AdTitle><Impression><![CDATA[http://127.0.0.1:8089/imp]]></Impression><Creatives><Creative><Linear><Duration>00:00:10</Duration><MediaFiles><MediaFile delivery="progressive" type="video/mp4" width="640" height="360"><![CDATA[clip.mp4]]></MediaFile></MediaFiles></Linear></Creative></Creatives></InLine></Ad></VAST>"#

    static func document(root: String = "vmap:VMAP", namespace: String = #"xmlns:vmap="http://www.iab.net/videosuite/vmap""#,
                         version: String = "1.0", breaks: String) -> Data {
        let prefix = root.contains(":") ? String(root.split(separator: ":")[0]) + ":" : ""
        return Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <\(root) \(namespace) version="\(version)">\(breaks.replacingOccurrences(of: "P:", with: prefix))</\(root)>
            """.utf8)
    }

    static func parsed(_ data: Data) throws -> VMAPDocument {
        try VMAPParser.parse(data).get()
    }

    @Test func everyTimeOffsetForm_isRead_andNothingElse() {
        #expect(VMAPTimeOffset(parsing: "00:00:10") == .time(.seconds(10)))
        #expect(VMAPTimeOffset(parsing: "00:01:02.500") == .time(.milliseconds(62_500)))
        #expect(VMAPTimeOffset(parsing: "25%") == .percent(25))
        #expect(VMAPTimeOffset(parsing: " start ") == .start && VMAPTimeOffset(parsing: "END") == .end)
        #expect(VMAPTimeOffset(parsing: "#3") == .position(3))
        for bad in ["10", "abc", "150%", "#0", "#", "-00:00:01", "", "#1x"] {
            #expect(VMAPTimeOffset(parsing: bad) == nil, "\(bad)")
        }
        #expect(VMAPTimeOffset.percent(50).resolve(against: .seconds(120)) == .seconds(60))
        #expect(VMAPTimeOffset.end.resolve(against: .seconds(120)) == .seconds(120) && VMAPTimeOffset.position(2).resolve(against: .seconds(9)) == nil)
    }

    /// Real documents use three namespaces (and some none): elements are matched by local name, and the one used
    /// is reported.
    @Test func theThreeNamespacesAndNone_areRead() throws {
        let breaks = #"<P:AdBreak timeOffset="start" breakType="linear"><P:AdSource><P:AdTagURI templateType="vast3"><![CDATA[http://127.0.0.1/t.xml]]></P:AdTagURI></P:AdSource></P:AdBreak>"#
        for (declaration, expected) in [(#"xmlns:vmap="http://www.iab.net/videosuite/vmap""#, VMAPDocument.Namespace.videosuite),
                                        (#"xmlns:vmap="http://www.iab.net/vmap-1.0""#, .vmap10),
                                        (#"xmlns:vmap="//www.iab.net/vmap-1.0""#, .schemeless)] {
            let document = try Self.parsed(Self.document(namespace: declaration, breaks: breaks))
            #expect(document.namespace == expected && document.breaks.count == 1)
            #expect(document.breaks[0].source?.content == .adTagURI("http://127.0.0.1/t.xml", templateType: "vast3"))
        }
        let bare = try Self.parsed(Self.document(root: "VMAP", namespace: "", breaks: breaks))
        #expect(bare.namespace == VMAPDocument.Namespace.none && bare.breaks.count == 1)
    }

    /// `VASTAdData` (the specification's) and `VASTData` (what real documents write) both carry the VAST inline, and
    /// what they carry parses as VAST.
    @Test func inlineVAST_underEitherName_isTheVASTDocument() throws {
        for name in ["VASTAdData", "VASTData"] {
            let document = try Self.parsed(Self.document(breaks: """
                <P:AdBreak timeOffset="00:00:30" breakType="linear" breakId="mid"><P:AdSource id="s1" allowMultipleAds="false" followRedirects="true">
                <P:\(name)>\(Self.inlineVAST)</P:\(name)></P:AdSource>
                <P:TrackingEvents><P:Tracking event="breakStart"><![CDATA[http://127.0.0.1:8089/bs]]></P:Tracking><P:Tracking event="error"><![CDATA[http://127.0.0.1:8089/e?c=[ERROR_CODE]]]></P:Tracking></P:TrackingEvents>
                <P:Extensions><P:Extension type="x"><n>1</n></P:Extension></P:Extensions></P:AdBreak>
                """))
            let adBreak = try #require(document.breaks.first)
            #expect(adBreak.breakID == "mid" && adBreak.isLinear && adBreak.source?.allowMultipleAds == false && adBreak.source?.id == "s1")
            guard case let .inlineVAST(data, elementName)? = adBreak.source?.content else { Issue.record("not inline"); continue }
            #expect(elementName == name)
            let vast = try VASTParser().parse(data)
            #expect(vast.ads.first?.id == "a")
            #expect(adBreak.tracking.map(\.event) == ["breakStart", "error"] && adBreak.tracking[1].url.hasSuffix("[ERROR_CODE]"))
            #expect(adBreak.extensions.count == 1 && adBreak.extensions[0].contains("<n>1</n>"), "extensions kept as written")
        }
    }

    @Test func aDocumentThatCannotPlay_saysWhichVMAPCode() {
        func code(_ data: Data) -> Int? {
            if case let .failure(error) = VMAPParser.parse(data) { return error.code.rawValue }
            return nil
        }
        #expect(code(Data(Self.inlineVAST.utf8)) == 1000, "a VAST document is not a VMAP one")
        #expect(code(Self.document(version: "2.0", breaks: "")) == 1001)
        #expect(code(Self.document(root: "VMAP", namespace: "", version: "", breaks: "")) == 1000, "no version")
        #expect(code(Data("<vmap:VMAP version=\"1.0\"><vmap:AdBreak>".utf8)) == 1002, "malformed")
        let entity = Data(#"<?xml version="1.0"?><!DOCTYPE VMAP [<!ENTITY e "x">]><VMAP version="1.0">&e;</VMAP>"#.utf8)
        #expect(code(entity) == 1002, "entities are refused by the hardened reader")
        let many = String(repeating: #"<P:AdBreak timeOffset="start" breakType="linear"/>"#, count: VMAPParser.maxBreaks + 1)
        #expect(code(Self.document(breaks: many)) == 1000, "thousands of breaks are refused")
    }

    @Test func aBadBreak_isLeftOut_andTheRestPlays() throws {
        let document = try Self.parsed(Self.document(breaks: """
            <P:AdBreak breakType="linear"/><P:AdBreak timeOffset="soon" breakType="linear"/>
            <P:AdBreak timeOffset="end"><P:AdSource/></P:AdBreak>
            <P:AdBreak timeOffset="00:00:05" breakType="nonlinear,display" repeatAfter="00:00:00"/>
            """))
        #expect(document.breaks.count == 2)
        #expect(document.problems.map { "\($0.breakIndex ?? -1):\($0.error.code.rawValue)" } == ["0:1000", "1:1000", "2:1000", "2:1004", "3:1000"])
        #expect(document.breaks[0].breakTypes == ["linear"] && document.breaks[0].source == nil, "linear assumed; an empty source dropped")
        #expect(!document.breaks[1].isLinear && document.breaks[1].repeatAfter == nil)
    }

    /// Placing breaks on the content clock: order, positions, repeats, breaks sharing an offset, and offsets a
    /// player cannot place.
    @Test func theSchedule_placesEachOccurrenceInTheOrderAPlayerMeetsThem() throws {
        let document = try Self.parsed(Self.document(breaks: """
            <P:AdBreak timeOffset="end" breakType="linear" breakId="post"/>
            <P:AdBreak timeOffset="50%" breakType="linear" breakId="half"/>
            <P:AdBreak timeOffset="start" breakType="linear" breakId="pre"/>
            <P:AdBreak timeOffset="00:00:20" breakType="linear" breakId="every20" repeatAfter="00:00:20"/>
            <P:AdBreak timeOffset="00:01:00" breakType="linear" breakId="atSixty"/>
            <P:AdBreak timeOffset="00:01:00" breakType="linear" breakId="alsoSixty"/>
            <P:AdBreak timeOffset="#2" breakType="linear"/>
            <P:AdBreak timeOffset="00:05:00" breakType="linear" breakId="late"/>
            """))
        let schedule = VMAPSchedule(document, contentDuration: .seconds(100))
        let placed = schedule.slots.map { "\(document.breaks[$0.breakIndex].breakID ?? "?")@\($0.time.seconds)#\($0.occurrence)p\($0.position)" }
        #expect(placed == ["pre@0.0#0p1", "every20@20.0#0p2", "every20@40.0#1p2", "half@50.0#0p2", "atSixty@60.0#0p2", "alsoSixty@60.0#0p2",
                           "every20@80.0#3p2", "post@100.0#0p3"])
        #expect(schedule.notes.contains { $0.contains("repeat at 00:01:00.000 gives way to break 5") })
        #expect(schedule.notes.contains { $0.contains("2 breaks at 00:01:00.000") && $0.contains("document order") })
        #expect(schedule.notes.contains { $0.contains("#2") } && schedule.notes.contains { $0.contains("00:05:00") && $0.contains("never reached") })
        #expect(VMAPSchedule.defaultContentDuration(document) == .seconds(330), "30 s past the latest clock offset")
    }
}
