import AdSession
import ArgumentParser
import Foundation
import Yams

/// Files a run writes for CI and people, and the expectations it is checked against.
struct ReportOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the whole session as one JSON document: chain, media, events, beacons, summary.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--report"))
    var report: String?

    @Option(help: ArgumentHelp("Write JUnit XML: one test case per expectation (or per default check).", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--junit"))
    var junit: String?

    @Option(help: ArgumentHelp("Draw the session as SVG: playhead against session time, pauses shaded, events, beacon latencies.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--timeline"))
    var timeline: String?

    @Option(name: .customLong("expect"), help: ArgumentHelp("Check the run against expectations (JSON or YAML); exit 1 with a diff when one fails.", valueName: "file"),
            completion: .file(), transform: Self.loadInput)
    var expectInput: InputFile<SessionExpectations>?

    var expect: SessionExpectations? { expectInput?.value }

    @Option(help: ArgumentHelp("Write what this run did as an expectations file (a golden file for --expect).", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--record-expectations"))
    var recordExpectations: String?

    /// Reads an expectations file: YAML when it ends in .yaml/.yml, else JSON (YAML is tried when the text is not
    /// JSON). A key vplay does not know (`event:` for `events:`) or a file with no expectations at all is refused:
    /// a check that silently checks nothing is worse than none.
    @Sendable static func loadInput(_ path: String) throws -> InputFile<SessionExpectations> {
        InputFile(path: path, value: try load(path))
    }

    @Sendable static func load(_ path: String) throws -> SessionExpectations {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--expect \(path): cannot read it") }
        let isYAML = path.hasSuffix(".yaml") || path.hasSuffix(".yml")
        let expectations: SessionExpectations
        do {
            if !isYAML, (try? JSONSerialization.jsonObject(with: data)) != nil {
                expectations = try JSONDecoder().decode(SessionExpectations.self, from: data)
            } else {
                expectations = try YAMLDecoder().decode(SessionExpectations.self, from: data)
            }
        } catch {
            throw ValidationError("--expect \(path): not a valid expectations file (\(describe(error)))")
        }
        if expectations.isEmpty { throw ValidationError("--expect \(path): the file expects nothing (no events, beacons, reward, errorCode or ending)") }
        return expectations
    }

    /// A decoding error in a sentence (the key path and what was wrong), not Foundation's dump.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
        }
        switch error {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            let at = path(context.codingPath)
            return (at.isEmpty ? "" : "at \(at): ") + context.debugDescription
        case let .keyNotFound(key, context):
            let at = path(context.codingPath)
            return "missing \(key.stringValue)" + (at.isEmpty ? "" : " at \(at)")
        @unknown default:
            return "\(error)"
        }
    }

    /// The output files, by option.
    var outputs: [(option: String, path: String?)] {
        [("--report", report), ("--junit", junit), ("--timeline", timeline), ("--record-expectations", recordExpectations)]
    }

    static func encode(_ expectations: SessionExpectations, yaml: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(expectations)
        guard yaml else { return String(decoding: json, as: UTF8.self) + "\n" }
        // YAML from the JSON tree, so numbers read as people write them (2.5, not Yams' 2.5e+0) and keys come in
        // a readable order.
        return try Yams.serialize(node: yamlNode(try JSONSerialization.jsonObject(with: json)))
    }

    /// The order keys are written in: the file's own, then each event's and beacon's (others alphabetically after).
    static let keyOrder = ["tolerance", "strict", "reward", "errorCode", "ending", "events", "beacons",
                           "name", "occurrence", "detail", "playhead", "clock", "count", "event", "source", "template", "url", "delivered"]

    static func yamlNode(_ value: Any) -> Node {
        switch value {
        case let object as [String: Any]:
            let keys = object.keys.sorted { lhs, rhs in
                let (l, r) = (keyOrder.firstIndex(of: lhs) ?? keyOrder.count, keyOrder.firstIndex(of: rhs) ?? keyOrder.count)
                return l != r ? l < r : lhs < rhs
            }
            return .mapping(Node.Mapping(keys.map { (Node.scalar(.init($0)), yamlNode(object[$0]!)) }))
        case let array as [Any]:
            return .sequence(Node.Sequence(array.map(yamlNode)))
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c": return .scalar(.init(number.boolValue ? "true" : "false"))
            case "d", "f": return .scalar(.init(number.doubleValue.description))
            default: return .scalar(.init(number.stringValue))
            }
        case let string as String:
            return .scalar(.init(string, Tag(.str)))
        default:
            return .scalar(.init("null"))
        }
    }
}
