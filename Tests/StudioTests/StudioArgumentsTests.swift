import Foundation
import Testing
@testable import Studio

/// What the page may ask for becomes `vplay` arguments, each checked; nothing else gets through.
@Suite struct StudioArgumentsTests {
    let maker = StudioArguments(tagFolder: "/tags", policyFlags: ["--deny-private-networks"])

    func request(_ json: String) throws -> StudioRequest {
        try JSONDecoder().decode(StudioRequest.self, from: Data(json.utf8))
    }

    @Test func aPastedTag_isWrittenToTheRunFolder_andResolvedAgainstTheTagFolder() throws {
        let (files, arguments) = try maker.make(try request(#"{"kind":"run","tag":{"xml":"<VAST/>"},"options":{"delivery":"sink","seed":"7","script":"mute@1,skip@+2"}}"#), folder: "/runs/1")
        #expect(files == ["tag.xml": "<VAST/>"])
        #expect(arguments == ["run", "--vast=/runs/1/tag.xml", "--base=/tags", "--deny-private-networks", "--json", "--script=mute@1,skip@+2", "--seed=7", "--sink",
                              "--report=/runs/1/report.json", "--beacons=/runs/1/beacons.jsonl", "--har=/runs/1/session.har",
                              "--junit=/runs/1/junit.xml", "--timeline=/runs/1/timeline.svg", "--bundle=/runs/1/bundle.json"])
    }

    @Test func aTagURL_mustBeHTTP() throws {
        let (_, arguments) = try maker.make(try request(#"{"kind":"run","tag":{"url":"https://ads.example/v.xml"},"options":{"delivery":"dry-run"}}"#), folder: "/r")
        #expect(arguments.prefix(4) == ["run", "--vast=https://ads.example/v.xml", "--deny-private-networks", "--json"] && arguments.contains("--dry-run"))
        for url in ["file:///etc/passwd", "/etc/passwd", "gopher://x", "http://"] {
            #expect(throws: StudioRequest.Invalid.self, "\(url)") { try maker.make(try request(#"{"kind":"run","tag":{"url":"\#(url)"}}"#), folder: "/r") }
        }
        #expect(throws: StudioRequest.Invalid.self) { try maker.make(try request(#"{"kind":"run","tag":{}}"#), folder: "/r") }
    }

    /// A value that would smuggle an option or a path in is refused before any process starts.
    @Test func valuesOutsideWhatTheCLITakes_areRefused() throws {
        let hostile = [
            #""script":"mute@1 --har=/etc/x""#, #""screen":"1x1;rm""#, #""speed":"-1""#, #""network":"--report=/x""#,
            #""delivery":"everywhere""#, #""pod":"some""#, #""now":"--bundle=/x""#, #""seed":"1 2""#, #""reward":"a:b:c""#,
            #""networkTrace":"{\"at\":0}""#, #""breakMaxAds":"0""#, #""viewability":"always""#,
            #""rewardCallback":"file:///etc/passwd""#, #""rewardCallback":"http://x.example/a b""#,
        ]
        for option in hostile {
            let asked = try request(#"{"kind":"run","tag":{"xml":"<VAST/>"},"options":{\#(option)}}"#)
            #expect(throws: StudioRequest.Invalid.self, "\(option)") { try maker.make(asked, folder: "/r") }
        }
    }

    @Test func aTrace_isWrittenAndNamed_andBeatsTheProfile() throws {
        let (files, arguments) = try maker.make(try request(#"{"kind":"run","tag":{"xml":"x"},"options":{"network":"4g","networkTrace":"[{\"at\":0,\"kbps\":10}]"}}"#), folder: "/r")
        #expect(files["trace.json"] == #"[{"at":0,"kbps":10}]"#)
        #expect(arguments.contains("--network-trace=/r/trace.json") && !arguments.contains("--network=4g"))
    }

    @Test func aFleet_writesItsProgress_andAnAuditNamesItsCaptureByKind() throws {
        let (_, fleet) = try maker.make(try request(#"{"kind":"fleet","tag":{"xml":"x"},"options":{"delivery":"dry-run"},"fleet":{"sessions":"10000","mix":"complete:1"}}"#), folder: "/r")
        #expect(fleet.contains("--sessions=10000") && fleet.contains("--mix=complete:1") && fleet.contains("--progress=/r/progress.jsonl") && fleet.first == "fleet"
                && !fleet.contains("--json"), "the report is a file: on stdout it would reach the page as 20,000 events")
        #expect(throws: StudioRequest.Invalid.self) { try maker.make(try request(#"{"kind":"fleet","tag":{"xml":"x"},"fleet":{"sessions":"2000000"}}"#), folder: "/r") }
        let har = #"{"log":{"version":"1.2","entries":[]}}"#
        let (files, audit) = try maker.make(try request(#"{"kind":"audit","tag":{"xml":"x"},"capture":{"name":"phone","text":\#(String(decoding: try JSONEncoder().encode(har), as: UTF8.self))}}"#), folder: "/r")
        #expect(files["capture.har"] == har && audit.contains("--har=/r/capture.har") && audit.contains("--report=/r/audit.json"))
        #expect(StudioArguments.captureKind(.init(name: "b.jsonl", text: #"{"kind":"beacon","event":"start"}"#)).option == "beacons")
        #expect(StudioArguments.captureKind(.init(name: "sink.log", text: #"{"sequence":1,"method":"GET"}"#)).option == "log")
        #expect(throws: StudioRequest.Invalid.self) { try maker.make(try request(#"{"kind":"audit","tag":{"xml":"x"}}"#), folder: "/r") }
    }

    @Test func theLintAfterARun_readsTheSameTag() throws {
        let pasted = maker.lint(try request(#"{"kind":"run","tag":{"xml":"x"}}"#), folder: "/r")
        #expect(pasted == ["lint", "/r/tag.xml", "--base=/tags", "--deny-private-networks", "--format=ndjson", "--output=/r/lint.ndjson"])
        let remote = maker.lint(try request(#"{"kind":"run","tag":{"url":"http://a.example/t.xml"}}"#), folder: "/r")
        #expect(remote.prefix(2) == ["lint", "http://a.example/t.xml"])
    }

    @Test func onlyTheNamedFiles_areServed() {
        #expect(StudioFiles.names(for: .run).contains("session.har") && !StudioFiles.names(for: .run).contains("tag.xml"))
        #expect(!StudioFiles.names(for: .audit).contains("capture.har"))
        #expect(StudioFiles.contentType(of: "timeline.svg") == "image/svg+xml")
    }
}
