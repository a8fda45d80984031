import Foundation
import Testing
import TestSupport

/// The live builders are the only places that build the real world: every other source file takes its clocks, HTTP
/// and media from a `SessionEnvironment` (or, for the tools, `LiveTools`), so each session step can be tested without
/// sockets or sleeps. The HTTP transports and the FFmpeg source are fenced by visibility (`LivePartsTests`); the
/// standard library's clocks cannot be, so making one, or reading the time without one, is looked for here.
@Suite struct CompositionRootTests {
    static let builders = ["AdSession/Core/SessionEnvironment+Live.swift", "AdSession/Core/LiveTools.swift"]

    @Test func realClocksHTTPAndFFmpeg_areBuiltOnlyInTheLiveEnvironment() throws {
        let sources = Repo.root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 50, "found the sources")
        var offenders: [String] = []
        for file in files where !Self.builders.contains(file) {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.trimmingCharacters(in: .whitespaces).hasPrefix("///") { continue }
                for needle in ["ContinuousClock()", "Date()", "ContinuousClock.now", "NIODeadline.now()", "HTTPBeaconTransport(", "FFmpegMediaSource("]
                where line.contains(needle) {
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
