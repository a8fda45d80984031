import Foundation
import Primitives

/// Third-party validators, run as subprocesses, for files vplay writes: Python's `jsonschema` against a JSON Schema
/// in `schemas/`, and `xmllint --schema` against an XSD there. Each returns the validator's complaints (empty when
/// the document is valid). A missing validator is an error, so a test that needs it fails (not skips): run
/// `scripts/setup.sh`.
public enum ExternalValidators {
    /// A validator that is not installed.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String
    }

    /// The repository's `schemas/` folder.
    public static let schemas = Repo.root.appendingPathComponent("schemas")

    /// Validates the JSON `data` against `schemas/<schemaFile>` (draft-07 or 2020-12, as the schema's `$schema`
    /// says) with Python's `jsonschema`. Returns one line per error (`path: message`), empty when valid.
    public static func jsonSchema(_ data: Data, schemaFile: String) async throws -> String {
        let script = """
            import json, sys
            try:
                import jsonschema
            except ImportError:
                sys.stderr.write("MISSING")
                sys.exit(3)
            schema = json.load(open(sys.argv[1]))
            document = json.load(open(sys.argv[2]))
            validator = jsonschema.validators.validator_for(schema)(schema)
            for error in sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.absolute_path))):
                print("/".join(map(str, error.absolute_path)) + ": " + error.message)
            """
        let schema = schemas.appendingPathComponent(schemaFile).path
        let result = try await offThePool { try run("python3", ["-c", script, schema], data: data, suffix: ".json") }
        guard result.status != 3, !result.errors.contains("MISSING") else {
            throw Missing(description: "python3 cannot import jsonschema: run scripts/setup.sh")
        }
        return (result.output + (result.status == 0 ? "" : result.errors)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Validates the XML `data` against `schemas/<xsd>` with `xmllint --schema`. Returns its complaints, empty when
    /// valid.
    public static func xmlSchema(_ data: Data, xsd: String) async throws -> String {
        let schema = schemas.appendingPathComponent(xsd).path
        let result = try await offThePool { try run("xmllint", ["--noout", "--schema", schema], data: data, suffix: ".xml") }
        guard result.status != 0 else { return "" }
        return (result.errors + result.output).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs `tool` (found on PATH) with `arguments` and the path of a temporary file holding `data` appended. It
    /// blocks its thread: callers run it `offThePool`, so two validators cannot hold both cooperative threads.
    static func run(_ tool: String, _ arguments: [String], data: Data, suffix: String) throws -> (status: Int32, output: String, errors: String) {
        guard let executable = which(tool) else { throw Missing(description: "\(tool) is not installed: run scripts/setup.sh") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("document\(suffix)"), output = folder.appendingPathComponent("out"),
            errors = folder.appendingPathComponent("err")
        try data.write(to: input)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + [input.path]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.runAlone()
        process.waitUntilExit()
        return (process.terminationStatus, try String(contentsOf: output, encoding: .utf8), try String(contentsOf: errors, encoding: .utf8))
    }

    public static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
