import Foundation
import Primitives

/// Validates vplay's JSON outputs against the published schemas in `schemas/` (JSON Schema draft 2020-12) with
/// Python's `jsonschema`, an implementation independent of vplay (`scripts/setup.sh` installs python3-jsonschema).
/// A missing validator is an error, never a skip: a schema that nothing checks is a promise nobody keeps.
public enum JSONSchemaCheck {
    /// The folder of the published schemas.
    public static let schemas = Repo.root.appendingPathComponent("schemas")

    /// Why a check could not run or what failed, in words.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// How a document file is read: one JSON value, or JSON Lines (each line validated on its own).
    public enum Form: String, Sendable {
        case json, jsonLines = "jsonl"
    }

    /// One document to validate: the file at `path` against `schemas/<schema>`.
    public struct Document: Sendable {
        public var schema: String
        public var path: String
        public var form: Form

        public init(_ path: String, schema: String, form: Form = .json) {
            self.schema = schema
            self.path = path
            self.form = form
        }
    }

    /// Validates every document; returns each error (`file line N at /json/pointer: message`), none when all hold.
    /// Throws when python3 or its jsonschema package is missing.
    public static func validate(_ documents: [Document]) async throws -> [String] {
        let arguments = ["validate"] + documents.flatMap { [$0.schema, $0.form.rawValue, $0.path] }
        return try await offThePool { try python(arguments) }
    }

    /// Checks every schema in `schemas/` against the draft 2020-12 meta-schema (`check_schema`); returns each error.
    public static func checkSchemas() async throws -> [String] {
        try await offThePool { try python(["check"]) }
    }

    /// The schema files in `schemas/` that are JSON Schemas (`*.schema.json`).
    public static var schemaFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: schemas.path)) ?? []).filter { $0.hasSuffix(".schema.json") }.sorted()
    }

    static let missing = 3

    private static func python(_ arguments: [String]) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, schemas.path] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.runAlone() } catch {
            throw Failure(description: "python3 cannot run (\(error)): run scripts/setup.sh to install python3 and python3-jsonschema")
        }
        // Read both before waiting, so a long error list cannot fill a pipe and stall the validator.
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let out = String(decoding: outData, as: UTF8.self), err = String(decoding: errData, as: UTF8.self)
        switch process.terminationStatus {
        case 0, 1: return out.split(separator: "\n").map(String.init)
        case Int32(missing): throw Failure(description: "python3 cannot import jsonschema: run scripts/setup.sh (it installs python3-jsonschema)")
        default: throw Failure(description: "the schema validator failed (exit \(process.terminationStatus)): \(err)\(out)")
        }
    }

    /// Resolves `$ref`s between the schema files by file name (`beacon-record.schema.json#/$defs/fields`) with
    /// `referencing` (jsonschema ≥ 4.18) or `RefResolver` (older, as Debian's 4.10). Exit 1 when a document or
    /// schema is invalid, 3 when jsonschema is missing.
    static let script = #"""
import json, os, sys
try:
    import jsonschema
    from jsonschema import Draft202012Validator
except ImportError:
    sys.exit(3)

folder, mode, args = sys.argv[1], sys.argv[2], sys.argv[3:]
schemas = {}
for name in sorted(os.listdir(folder)):
    if name.endswith(".schema.json"):
        with open(os.path.join(folder, name)) as f:
            schemas[name] = json.load(f)

def validator(name):
    schema = schemas[name]
    try:
        from referencing import Registry, Resource
        from referencing.jsonschema import DRAFT202012
        registry = Registry().with_resources(
            [(key, Resource.from_contents(value, default_specification=DRAFT202012)) for key, value in schemas.items()])
        return Draft202012Validator(schema, registry=registry)
    except ImportError:
        resolver = jsonschema.RefResolver(base_uri="", referrer=schema, store=dict(schemas))
        return Draft202012Validator(schema, resolver=resolver)

failed = False
if mode == "check":
    for name, schema in schemas.items():
        try:
            Draft202012Validator.check_schema(schema)
        except jsonschema.exceptions.SchemaError as error:
            failed = True
            print(f"{name}: {error.message} at /{'/'.join(map(str, error.absolute_path))}")
else:
    for schema, form, path in zip(args[0::3], args[1::3], args[2::3]):
        if schema not in schemas:
            failed = True
            print(f"{path}: no schema {schema} in {folder}")
            continue
        check = validator(schema)
        with open(path) as f:
            text = f.read()
        if form == "jsonl":
            values = [(n + 1, line) for n, line in enumerate(text.split("\n")) if line.strip()]
            if not values:
                failed = True
                print(f"{path}: no lines")
        else:
            values = [(1, text)]
        for number, value in values:
            try:
                document = json.loads(value)
            except ValueError as error:
                failed = True
                print(f"{path} line {number}: not JSON: {error}")
                continue
            for error in sorted(check.iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))[:5]:
                failed = True
                print(f"{path} line {number} at /{'/'.join(map(str, error.absolute_path))}: {error.message[:300]}")
sys.exit(1 if failed else 0)
"""#
}
