import Foundation
import Primitives

/// Every run of this studio: started from the page's requests, each in its own folder under `DATA/runs/`, each a
/// `vplay` child process of the very binary serving the page, so what the page downloads is what the CLI writes.
public final class StudioRuns: Sendable {
    /// The `vplay` binary the children run (this process's own executable).
    public let executable: String
    /// `DATA/runs`.
    public let runsFolder: String
    public let history: StudioHistory
    public let arguments: StudioArguments
    private let runs = Locked<[String: StudioRun]>([:])

    public init(executable: String, runsFolder: String, history: StudioHistory, arguments: StudioArguments) {
        self.executable = executable
        self.runsFolder = runsFolder
        self.history = history
        self.arguments = arguments
    }

    public func run(id: String) -> StudioRun? {
        runs.withLock { $0[id] }
    }

    /// A run's folder when `id` is one this studio made (letters, digits and dashes only: never a path).
    public func folder(of id: String) -> String? {
        guard id.range(of: #"^[0-9A-Za-z-]{1,64}$"#, options: .regularExpression) != nil else { return nil }
        let folder = (runsFolder as NSString).appendingPathComponent(id)
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue ? folder : nil
    }

    /// Starts what `request` asks for; its body is kept as `request.json`.
    public func start(_ request: StudioRequest, body: Data, now: Date) throws -> StudioRun {
        let id = Self.makeID(now)
        let folder = (runsFolder as NSString).appendingPathComponent(id)
        let (files, arguments) = try self.arguments.make(request, folder: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(name))) }
        try body.write(to: URL(fileURLWithPath: (folder as NSString).appendingPathComponent("request.json")))
        let run = StudioRun(id: id, kind: request.kind, folder: folder)
        runs.withLock { $0[id] = run }
        let argumentsJSON = String(decoding: (try? JSONSerialization.data(withJSONObject: arguments)) ?? Data("[]".utf8), as: UTF8.self)
        try history.insert(.init(id: id, kind: request.kind.rawValue, title: request.title, created: ISO8601DateFormatter().string(from: now),
                                 state: "running", exitCode: nil, arguments: argumentsJSON, summary: ""))
        let lint = request.kind == .run ? self.arguments.lint(request, folder: folder) : nil
        Thread.detachNewThread { [self] in self.play(run, arguments: arguments, lint: lint) }
        return run
    }

    /// Forgets a run: its row and its folder (a run still playing is stopped first).
    public func delete(id: String) throws {
        if let run = run(id: id) { run.stop() }
        runs.withLock { _ = $0.removeValue(forKey: id) }
        try history.delete(id: id)
        if let folder = folder(of: id) { try FileManager.default.removeItem(atPath: folder) }
    }

    /// Stops every run still playing (the studio is closing): each child writes what it has.
    public func stopAll() {
        for run in runs.withLock({ Array($0.values) }) where !run.isFinished { run.stop() }
    }

    // MARK: Playing

    private func play(_ run: StudioRun, arguments: [String], lint: [String]?) {
        let errors = Appender((run.folder as NSString).appendingPathComponent("stderr.txt"))
        let lastSummary = Locked<String>("")
        let code = playChild(run, arguments: arguments, errors: errors, lastSummary: lastSummary)
        // Findings with their rule IDs: the lint of the same tag, once the run is over (never after a stop).
        if let lint, let code, !run.wasStopped, code != 2 { lintAfter(run, arguments: lint, errors: errors) }
        finish(run, code: code ?? -1, summary: lastSummary.withLock { $0 })
    }

    /// The run's own child: each stdout line kept and published (the last summary line remembered), each stderr
    /// line too, a fleet's progress file followed. Its exit code; nil when it could not start.
    private func playChild(_ run: StudioRun, arguments: [String], errors: Appender, lastSummary: Locked<String>) -> Int? {
        let stream = Appender((run.folder as NSString).appendingPathComponent(StudioFiles.stdout(for: run.kind)))
        let child: ChildProcess
        do {
            child = try ChildProcess(executable: executable, arguments: arguments, folder: run.folder, onLine: { line in
                stream.append(line)
                if line.hasPrefix("{\"kind\":\"summary\"") { lastSummary.withLock { $0 = line } }
                run.publish(.init(name: "record", data: line))
            }, onError: { line in
                errors.append(line)
                run.publish(.init(name: "log", data: Self.jsonString(line)))
            })
        } catch {
            run.publish(.init(name: "log", data: Self.jsonString("vplay studio: cannot start vplay: \(error)")))
            return nil
        }
        let progress = run.kind == .fleet ? ProgressTail((run.folder as NSString).appendingPathComponent("progress.jsonl")) { line in
            run.publish(.init(name: "progress", data: line))
        } : nil
        let code = wait(for: child, of: run)
        progress?.stop()
        return code
    }

    /// `vplay lint` of the run's tag; its findings published once it ends (none when the run is stopped meanwhile).
    private func lintAfter(_ run: StudioRun, arguments: [String], errors: Appender) {
        guard let child = try? ChildProcess(executable: executable, arguments: arguments, folder: run.folder, onLine: { _ in },
                                            onError: { line in errors.append(line) }) else { return }
        _ = wait(for: child, of: run)
        guard !run.wasStopped else { return }
        let text = (try? String(contentsOfFile: (run.folder as NSString).appendingPathComponent("lint.ndjson"), encoding: .utf8)) ?? ""
        for line in text.split(separator: "\n") where !line.isEmpty { run.publish(.init(name: "finding", data: String(line))) }
    }

    /// Waits for `child` as the child `run` stops on Stop; a run stopped before it began stops it at once.
    private func wait(for child: ChildProcess, of run: StudioRun) -> Int {
        guard run.attach(child) else {
            child.interrupt()
            return child.wait()
        }
        defer { _ = run.attach(nil) }
        return child.wait()
    }

    /// What the history keeps of a run: the session's summary line; a fleet's or an audit's report (its headline
    /// figures, for the comparison).
    static func summary(of run: StudioRun, line: String) -> String {
        let report: String
        switch run.kind {
        case .run: return line
        case .fleet: report = "fleet-report.json"
        case .audit: report = "audit.json"
        }
        guard let data = FileManager.default.contents(atPath: (run.folder as NSString).appendingPathComponent(report)),
              var object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return "" }
        // The per-URL tables are the report's, not the headline's.
        for key in ["trackers", "unmatched", "findings"] { object[key] = nil }
        if var population = object["population"] as? [String: Any] {
            population["beacons"] = nil
            object["population"] = population
        }
        return (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    private func finish(_ run: StudioRun, code: Int, summary: String) {
        let state = run.wasStopped ? "stopped" : code == 0 ? "done" : "failed"
        let files = StudioFiles.names(for: run.kind).filter { FileManager.default.fileExists(atPath: (run.folder as NSString).appendingPathComponent($0)) }
        try? history.finish(id: run.id, state: state, exitCode: code, summary: Self.summary(of: run, line: summary))
        let end: [String: Any] = ["exitCode": code, "state": state, "files": files]
        let data = String(decoding: (try? JSONSerialization.data(withJSONObject: end, options: [.sortedKeys])) ?? Data(), as: UTF8.self)
        run.publish(.init(name: "end", data: data), last: true)
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8), as: UTF8.self)
            .dropFirst().dropLast().description
    }

    /// Sortable by time, unique by chance: `20261203-104512-3f9a1c`.
    static func makeID(_ now: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        var generator = SystemRandomNumberGenerator()
        return formatter.string(from: now) + "-" + String(format: "%06x", generator.next(upperBound: UInt32(1 << 24)))
    }
}
