import BeaconSink
import Foundation
import Testing
import TestSupport

/// Issue 21 (JSON): every JSON output of vplay — `--json` records, `--report`, `--beacons` lines, the fleet report and
/// `inspect --json` — validates against its published schema in `schemas/` (checked by Python's jsonschema, not by
/// vplay), and follows the conventions the schemas state: no jq keyword as a key, times in seconds (an instant as
/// ISO 8601, another unit named in the key), lowerCamelCase keys and enumerated values, a session on every record,
/// one beacon record shape, `offset` on progress beacons.
@Suite(.serialized, .hangLimit) struct JSONSchemaTests {
    /// The outputs of each run, written once and shared by the tests: the demo sent to the embedded sink, a pod in a
    /// dry run, a tag whose media is missing, `inspect --json` of the demo and the pod, a fleet and a merge of its
    /// shards.
    struct Outputs: Sendable {
        var documents: [JSONSchemaCheck.Document]
        var folder: String
    }

    static let outputs = Task { () throws -> Outputs in
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-schemas-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        var documents: [JSONSchemaCheck.Document] = []
        func session(_ name: String, _ tag: String, _ extra: [String], exit: Int32) async throws {
            let run = try await vplay(["--vast", tag, "--json", "--seed", "7", "--now", "2026-11-22T12:00:00Z",
                                       "--report", path("\(name).report.json"), "--beacons", path("\(name).beacons.jsonl")] + extra)
            guard run.status == exit else { throw SetupError(message: "\(name): exit \(run.status), not \(exit): \(run.stderr)") }
            try Data(run.stdout.utf8).write(to: URL(fileURLWithPath: path("\(name).jsonl")))
            documents += [
                .init(path("\(name).jsonl"), schema: "events.schema.json", form: .jsonLines),
                .init(path("\(name).report.json"), schema: "report.schema.json"),
                .init(path("\(name).beacons.jsonl"), schema: "beacons.schema.json", form: .jsonLines),
            ]
        }
        let expect = path("expect.json")
        try Data(#"{"events": [{"name": "impression", "count": 1}], "beacons": [{"event": "midpoint", "delivered": true}]}"#.utf8)
            .write(to: URL(fileURLWithPath: expect))
        try await session("demo", Repo.media("demo.xml"), ["--sink", "--expect", expect], exit: 0)
        try await session("pod", Repo.media("pods/pod.xml"), ["--dry-run"], exit: 0)
        let missing = path("missing-media.xml")
        try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(path("no-such-clip.mp4"))]]>")
            .write(toFile: missing, atomically: true, encoding: .utf8)
        try await session("failing", missing, ["--dry-run"], exit: 4)
        for (name, tag) in [("demo", Repo.media("demo.xml")), ("pod", Repo.media("pods/pod.xml"))] {
            let run = try await vplay(["inspect", "--vast", tag, "--json"])
            guard run.status == 0 else { throw SetupError(message: "inspect \(name): exit \(run.status): \(run.stderr)") }
            try Data(run.stdout.utf8).write(to: URL(fileURLWithPath: path("\(name).inspect.json")))
            documents.append(.init(path("\(name).inspect.json"), schema: "inspect.schema.json"))
        }
        for shard in 0..<2 {
            let run = try await vplay(["fleet", "--vast", Repo.media("demo.xml"), "--sessions", "12", "--seed", "7", "--sink-all",
                                       "--shard", "\(shard)/2", "--report", path("shard-\(shard).json")])
            guard run.status == 0 else { throw SetupError(message: "fleet shard \(shard): exit \(run.status): \(run.stderr)") }
            documents.append(.init(path("shard-\(shard).json"), schema: "fleet-report.schema.json"))
        }
        // Issue 37, item 18: `probe --json`, plain, with --decode (an audio and a video stream) and with --demux.
        for (name, extra) in [("probe", [String]()), ("probe-decode", ["--decode"]), ("probe-demux", ["--demux"])] {
            let run = try await vplay(["probe", Repo.media("clip-10s-360p.mp4"), "--json"] + extra)
            guard run.status == 0 else { throw SetupError(message: "\(name): exit \(run.status): \(run.stderr)") }
            try Data(run.stdout.utf8).write(to: URL(fileURLWithPath: path("\(name).json")))
            documents.append(.init(path("\(name).json"), schema: "probe.schema.json"))
        }
        // Issue 37, item 18: `--omid-log` of the demo played with pauses, a mute, a click and a skip, and of a pod.
        for (name, arguments) in [("omid-demo", ["--vast", Repo.media("demo.xml"), "--dry-run", "--script", "pause@3,resume@4,mute@5,unmute@6,click@6.5,skip@7"]),
                                  ("omid-pod", ["--vast", Repo.media("pods/pod.xml"), "--dry-run"])] {
            let run = try await vplay(arguments + ["--quiet", "--omid-log", path("\(name).jsonl")])
            guard run.status == 0 else { throw SetupError(message: "\(name): exit \(run.status): \(run.stderr)") }
            documents.append(.init(path("\(name).jsonl"), schema: "omid-log.schema.json", form: .jsonLines))
        }
        // `audit --json` and `--report` of the demo's own beacon log (checks that fail included: its beacons went out
        // on the virtual clock, bunched), and of a capture that matches nothing.
        let audited = try await vplay(["audit", "--vast", Repo.media("demo.xml"), "--beacons", path("demo.beacons.jsonl"), "--json",
                                       "--report", path("audit.report.json")])
        guard audited.status == 0 || audited.status == 1 else { throw SetupError(message: "audit: exit \(audited.status): \(audited.stderr)") }
        try Data(audited.stdout.utf8).write(to: URL(fileURLWithPath: path("audit.json")))
        let stray = path("stray.har")
        try Data(#"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [{"startedDateTime": "2026-11-22T12:00:00.000Z", "time": 1, "request": {"method": "GET", "url": "http://127.0.0.1:9/pixel?event=start", "httpVersion": "HTTP/1.1", "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0}, "response": {"status": 200, "statusText": "", "httpVersion": "HTTP/1.1", "headers": [], "cookies": [], "content": {"size": 0, "mimeType": "image/gif"}, "redirectURL": "", "headersSize": -1, "bodySize": 0}, "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}]}}"#.utf8)
            .write(to: URL(fileURLWithPath: stray))
        let strayAudit = try await vplay(["audit", "--vast", Repo.media("demo.xml"), "--har", stray, "--json"])
        guard strayAudit.status == 1 else { throw SetupError(message: "audit of a stray capture: exit \(strayAudit.status): \(strayAudit.stderr)") }
        try Data(strayAudit.stdout.utf8).write(to: URL(fileURLWithPath: path("audit-stray.json")))
        documents += [.init(path("audit.json"), schema: "audit.schema.json"), .init(path("audit.report.json"), schema: "audit.schema.json"),
                      .init(path("audit-stray.json"), schema: "audit.schema.json")]
        // `reward-check --json` against an endpoint that credits everything (each forgery's line says it should
        // not have), and against a closed port (no status, an error).
        let credits = try ScriptedHTTPServer(replies: [.status(200)])
        defer { credits.stop() }
        for (name, url) in [("reward-check", credits.baseURL + "/ssv"), ("reward-check-closed", "http://127.0.0.1:\(ScriptedHTTPServer.closedPort())/ssv")] {
            let run = try await vplay(["reward-check", url, "--json", "--timeout", "30"])
            guard run.status == 1 else { throw SetupError(message: "\(name): exit \(run.status): \(run.stderr)") }
            try Data(run.stdout.utf8).write(to: URL(fileURLWithPath: path("\(name).jsonl")))
            documents.append(.init(path("\(name).jsonl"), schema: "reward-check.schema.json", form: .jsonLines))
        }
        let merge = try await vplay(["merge", path("shard-0.json"), path("shard-1.json"), "--report", path("fleet.json")])
        guard merge.status == 0 else { throw SetupError(message: "merge: exit \(merge.status): \(merge.stderr)") }
        documents.append(.init(path("fleet.json"), schema: "fleet-report.schema.json"))
        return Outputs(documents: documents, folder: folder.path)
    }

    struct SetupError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Every value of a document (each line of JSON Lines).
    static func values(_ document: JSONSchemaCheck.Document) throws -> [Any] {
        let text = try String(contentsOfFile: document.path, encoding: .utf8)
        let chunks = document.form == .jsonLines ? text.split(separator: "\n").map(String.init) : [text]
        return try chunks.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) }
    }

    @Test func theSchemas_areValidDraft202012Schemas() async throws {
        #expect(Set(JSONSchemaCheck.schemaFiles).isSuperset(of: ["beacon-record.schema.json", "beacons.schema.json", "events.schema.json",
                                                                 "fleet-report.schema.json", "inspect.schema.json", "report.schema.json",
                                                                 "probe.schema.json", "sink-hit.schema.json", "audit.schema.json",
                                                                 "reward-check.schema.json", "omid-log.schema.json"]),
                "\(JSONSchemaCheck.schemaFiles)")
        let errors = try await JSONSchemaCheck.checkSchemas()
        #expect(errors.isEmpty, "\(errors.joined(separator: "\n"))")
    }

    /// Only processes write these outputs: stdout of `--json` and `inspect --json`, reports and beacon logs.
    @Test func everyOutput_validatesAgainstItsSchema() async throws {
        let outputs = try await Self.outputs.value
        #expect(Set(outputs.documents.map(\.schema)) == ["events.schema.json", "report.schema.json", "beacons.schema.json",
                                                         "inspect.schema.json", "fleet-report.schema.json", "probe.schema.json",
                                                         "omid-log.schema.json", "audit.schema.json", "reward-check.schema.json"])
        let errors = try await JSONSchemaCheck.validate(outputs.documents)
        #expect(errors.isEmpty, "\(errors.joined(separator: "\n"))")
    }

    /// Issue 37, item 18: the sink's hit log (`vplay sink --log`, `/__vplay/hits`) has a schema too. Its lines are the
    /// writer's own bytes (`SinkHit.jsonBytes`, what `HitLogWriter` appends), awkward values included; the schema
    /// refuses a line without the ISO 8601 time.
    @Test func theSinkHitLog_validatesAgainstItsSchema() async throws {
        let folder = try TemporaryFolder()
        let hits = [
            SinkHit(sequence: 1, connection: 1, method: "GET", target: "/impression?cb=1", path: "/impression", query: "cb=1",
                    userAgent: "vplay/1", host: "127.0.0.1:8089", receivedAtMilliseconds: 1_764_650_000_123, status: 200, fault: nil),
            SinkHit(sequence: 2, connection: 2, method: "GET", target: "/p?a=\"b\"&\u{1}é", path: "/p", query: "a=\"b\"&\u{1}é",
                    userAgent: nil, host: nil, receivedAtMilliseconds: 0, status: nil, fault: "hang@*", range: "bytes=0-"),
        ]
        let log = try folder.write("hits.jsonl", hits.map { String(decoding: $0.jsonBytes, as: UTF8.self) }.joined(separator: "\n"))
        #expect(try await JSONSchemaCheck.validate([.init(log, schema: "sink-hit.schema.json", form: .jsonLines)]).isEmpty)
        let old = try folder.write("old.jsonl", String(decoding: hits[0].jsonBytes, as: UTF8.self)
            .replacingOccurrences(of: #""receivedAt":"2025-12-02T04:33:20.123Z","#, with: ""))
        #expect(try await JSONSchemaCheck.validate([.init(old, schema: "sink-hit.schema.json", form: .jsonLines)]).count == 1)
    }

    /// Only a process writes the `--beacons` line altered here; the schema refuses each altered copy.
    @Test func theSchemas_rejectWhatTheyDoNotDescribe() async throws {
        let outputs = try await Self.outputs.value
        let folder = try TemporaryFolder()
        let beaconLog = try #require(outputs.documents.first { $0.schema == "beacons.schema.json" })
        let line = try #require(try String(contentsOfFile: beaconLog.path, encoding: .utf8).split(separator: "\n").first)
        var record = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        record["latencyMs"] = 2
        let extra = try folder.write("extra.jsonl", try JSONSerialization.data(withJSONObject: record))
        record["latencyMs"] = nil
        record["sentAt"] = 1_795_867_200_123
        let oldSentAt = try folder.write("old.jsonl", try JSONSerialization.data(withJSONObject: record))
        record["sentAt"] = nil
        let noSentAt = try folder.write("none.jsonl", try JSONSerialization.data(withJSONObject: record))
        for path in [extra, oldSentAt, noSentAt] {
            let errors = try await JSONSchemaCheck.validate([.init(path, schema: "beacons.schema.json", form: .jsonLines)])
            #expect(!errors.isEmpty, "\(path) should not validate")
        }
    }

    /// The documented examples of `--json` records and a `--beacons` line (docs/reference/json.md) are the published
    /// shapes: each line validates.
    @Test func theDocumentedJSONLinesExamples_validateAgainstTheSchemas() async throws {
        let readme = try String(contentsOfFile: Repo.root.appendingPathComponent("docs/reference/json.md").path, encoding: .utf8)
        let folder = try TemporaryFolder()
        var documents: [JSONSchemaCheck.Document] = []
        for (heading, schema) in [("`--json` (the demo through the sink", "events.schema.json"), ("`--beacons` (keys sorted", "beacons.schema.json")] {
            let start = try #require(readme.range(of: heading), "docs/reference/json.md has no example headed \(heading)")
            let fence = try #require(readme.range(of: "```json\n", range: start.upperBound..<readme.endIndex))
            let end = try #require(readme.range(of: "```", range: fence.upperBound..<readme.endIndex))
            let lines = readme[fence.upperBound..<end.lowerBound]
            #expect(lines.split(separator: "\n").count >= 1)
            documents.append(.init(try folder.write("\(schema).jsonl", String(lines)), schema: schema, form: .jsonLines))
        }
        let errors = try await JSONSchemaCheck.validate(documents)
        #expect(errors.isEmpty, "\(errors.joined(separator: "\n"))")
    }

    /// jq's keywords: a key spelled like one must be quoted in every jq filter (`.end` is a syntax error).
    static let jqKeywords: Set = ["and", "or", "not", "if", "then", "elif", "else", "end", "as", "def", "reduce", "foreach", "try",
                                  "catch", "label", "import", "include", "__loc__", "true", "false", "null"]
    /// Objects whose keys are data (a scenario, an event or a network's name, a failure in words), not field names.
    static let dataMaps: Set = ["scenarios", "endings", "events", "failures", "networks", "reached"]
    /// Keys holding a duration, playhead, offset or latency: a number of seconds (or null).
    static let secondsKeys: Set = ["playhead", "clock", "latency", "offset", "duration", "time", "at", "played", "rebuffer",
                                   "startupBuffer", "p50", "p90", "p99", "max"]
    /// Enumerated values: lowerCamelCase.
    static let enumeratedKeys: Set = ["kind", "outcome", "ending", "errorCode", "measuredBy", "clockMode", "verdict"]

    /// What in `value` breaks the conventions, each with its JSON path.
    static func violations(_ value: Any, at path: String = "", dataMap: Bool = false) -> [String] {
        if let array = value as? [Any] { return array.enumerated().flatMap { violations($1, at: "\(path)/\($0)") } }
        guard let object = value as? [String: Any] else { return [] }
        var found: [String] = []
        for (key, child) in object {
            let here = "\(path)/\(key)"
            if !dataMap {
                if jqKeywords.contains(key) { found.append("\(here): a jq keyword as a key") }
                if key.wholeMatch(of: /[a-z][A-Za-z0-9]*/) == nil { found.append("\(here): not a lowerCamelCase key") }
                if key.contains(/(Ms|Millis|Milliseconds|Seconds|Secs)$/) {
                    found.append("\(here): seconds carry no unit in their name, and no time is in milliseconds")
                }
                let isSeconds = secondsKeys.contains(key) || key.contains(/(Time|Clock|Duration|Timeout|Delay|Lateness|Offset)$/)
                if isSeconds, !(child is NSNull), (child as? NSNumber) == nil {
                    found.append("\(here): a time must be a number of seconds, was \(String(describing: child).prefix(80))")
                }
                if key.hasSuffix("At"), !(child is NSNull),
                   (child as? String)?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) == nil {
                    found.append("\(here): an instant must be ISO 8601 UTC with milliseconds, was \(String(describing: child).prefix(80))")
                }
                if enumeratedKeys.contains(key), let text = child as? String, text.wholeMatch(of: /[a-z][A-Za-z0-9]*/) == nil {
                    found.append("\(here): the enumerated value \(text) is not lowerCamelCase")
                }
            }
            found += violations(child, at: here, dataMap: !dataMap && dataMaps.contains(key) && child is [String: Any])
        }
        return found
    }

    /// Only processes write these outputs: every key and time of the runs' stdout and files, as written.
    @Test func noKeyIsAJQKeyword_andEveryTimeFollowsTheUnitRule() async throws {
        let outputs = try await Self.outputs.value
        var found: [String] = []
        for document in outputs.documents {
            for (index, value) in try Self.values(document).enumerated() {
                found += Self.violations(value).map { "\(URL(fileURLWithPath: document.path).lastPathComponent) #\(index + 1) \($0)" }
            }
        }
        #expect(found.isEmpty, "\(found.prefix(20).joined(separator: "\n"))")
        // The rule itself catches what it names.
        #expect(Self.violations(["end": 1.0, "maxMs": 2.0, "sentAt": 3, "outcome": "not-played", "clock": "virtual"]).count == 5)
    }

    /// Only processes write these outputs: the session and beacon shape of the runs' stdout and files, as written.
    @Test func everySessionRecord_carriesTheSession_andEveryBeaconRecordHasOneShape() async throws {
        let outputs = try await Self.outputs.value
        var beaconKeys: [Set<String>] = []
        for document in outputs.documents where ["events.schema.json", "beacons.schema.json", "report.schema.json"].contains(document.schema) {
            let values = try Self.values(document).compactMap { $0 as? [String: Any] }
            let records: [[String: Any]]
            if document.schema == "report.schema.json" {
                let report = try #require(values.first)
                #expect((report["session"] as? String)?.isEmpty == false)
                let lists = ["events", "beacons", "errors"].flatMap { report[$0] as? [[String: Any]] ?? [] }
                records = lists + ["summary", "resolved", "reconciliation", "expectations"].compactMap { report[$0] as? [String: Any] }
                #expect(records.allSatisfy { $0["session"] as? String == report["session"] as? String }, "\(document.path)")
            } else {
                records = values
            }
            let sessions = Set(records.compactMap { $0["session"] as? String })
            #expect(sessions.count == 1 && records.allSatisfy { $0["session"] is String }, "\(document.path): \(sessions)")
            for record in records where document.schema == "beacons.schema.json" || record["kind"] as? String == "beacon" {
                var keys = Set(record.keys)
                keys.remove("kind")
                beaconKeys.append(keys.subtracting(["offset", "requestedURL", "redirects", "ad", "unknownMacros"]))
                if record["event"] as? String == "progress" {
                    #expect(record["offset"] is NSNumber, "a progress beacon carries its offset: \(record)")
                } else {
                    #expect(record["offset"] == nil)
                }
            }
        }
        #expect(!beaconKeys.isEmpty && Set(beaconKeys).count == 1, "\(Set(beaconKeys))")
        #expect(beaconKeys.first == ["event", "source", "template", "url", "playhead", "clock", "sentAt", "attempt", "finalAttempt", "status",
                                     "latency", "bytes", "error", "errorCode", "delivered", "dryRun", "session"])
    }

    /// Only a process writes the demo's `--beacons` file, its beacons sent over loopback HTTP to the embedded sink.
    @Test func theDemo_sendsProgressBeaconsWithTheirOffset_andISO8601SendTimes() async throws {
        let outputs = try await Self.outputs.value
        let log = try jsonLines(URL(fileURLWithPath: outputs.folder).appendingPathComponent("demo.beacons.jsonl").path)
        let progress = log.filter { $0["event"] as? String == "progress" }
        #expect(!progress.isEmpty && progress.allSatisfy { ($0["offset"] as? Double).map { $0 > 0 } == true }, "\(progress)")
        #expect(log.allSatisfy { ($0["sentAt"] as? String)?.hasSuffix("Z") == true && $0["delivered"] as? Bool == true }, "\(log.prefix(2))")
    }
}
