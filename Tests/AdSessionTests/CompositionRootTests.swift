import Foundation
import Testing
import TestSupport

/// The live environment builder is the only place that builds the real world: every other source file takes its
/// clocks, HTTP and media from a `SessionEnvironment`, so each session step can be tested without sockets or sleeps.
@Suite struct CompositionRootTests {
    @Test func realClocksHTTPAndFFmpeg_areBuiltOnlyInTheLiveEnvironment() throws {
        let sources = Repo.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 50, "found the sources")
        var offenders: [String] = []
        for file in files where !file.hasSuffix("SessionEnvironment+Live.swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("///") { continue }
                for needle in ["ContinuousClock()", "Date()", "HTTPBeaconTransport(", "FFmpegMediaSource("] where line.contains(needle) {
                    offenders.append("\(file):\(number + 1): \(needle)")
                }
            }
        }
        #expect(offenders.isEmpty, "\(offenders)")
    }

    /// Every XML document vplay reads goes through the one hardened reader (`SafeXMLReader` in `XMLReading`): no other
    /// source file imports Foundation's XML parser, so no format can forget the pre-scan (a DASH manifest once did,
    /// and `<?x?>` crashed the process).
    @Test func onlyTheHardenedReader_parsesXML() throws {
        let sources = Repo.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var offenders: [String] = []
        for file in files where !file.hasPrefix("XMLReading/") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for needle in ["import FoundationXML", "XMLParser(", "XMLDocument("] where text.contains(needle) {
                offenders.append("\(file): \(needle)")
            }
        }
        #expect(files.contains { $0.hasPrefix("XMLReading/") }, "found the reader")
        #expect(offenders.isEmpty, "\(offenders)")
    }
}
