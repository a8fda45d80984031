import AdSession
import ArgumentParser
import Foundation
import Yams

/// Files a run writes for CI and people, and the expectations it is checked against.
struct ReportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the whole session as one JSON document: chain, media, events, beacons, summary.", valueName: "file"))
    var report: String?

    @Option(help: ArgumentHelp("Write JUnit XML: one test case per expectation (or per default check).", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Draw the session as SVG: playhead against session time, pauses shaded, events, beacon latencies.", valueName: "file"))
    var timeline: String?

    @Option(help: ArgumentHelp("Check the run against expectations (JSON or YAML); exit 1 with a diff when one fails.", valueName: "file"))
    var expect: String?

    @Option(help: ArgumentHelp("Write what this run did as an expectations file (a golden file for --expect).", valueName: "file"))
    var recordExpectations: String?

    func validate() throws {
        if let expect { _ = try Self.load(expect) }
    }

    /// Reads an expectations file: YAML when it ends in .yaml/.yml, else JSON (YAML is tried when JSON fails).
    static func load(_ path: String) throws -> SessionExpectations {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--expect \(path): cannot read it") }
        let isYAML = path.hasSuffix(".yaml") || path.hasSuffix(".yml")
        if !isYAML, let parsed = try? JSONDecoder().decode(SessionExpectations.self, from: data) { return parsed }
        do {
            return try YAMLDecoder().decode(SessionExpectations.self, from: data)
        } catch {
            throw ValidationError("--expect \(path): not a valid expectations file (\(error))")
        }
    }

    static func write(_ text: String, to path: String) throws {
        do { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) } catch {
            throw ValidationError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    static func encode(_ expectations: SessionExpectations, yaml: Bool) throws -> String {
        if yaml { return try YAMLEncoder().encode(expectations) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(expectations), as: UTF8.self) + "\n"
    }
}
