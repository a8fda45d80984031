import Foundation
import Primitives
import SQLite

/// `fleet --results FILE.sqlite`: every session, playback event, beacon attempt and hit at the sink, written to an
/// SQLite database as the fleet runs (docs/reference/results.md has the schema), so a measurement team asks its
/// questions in SQL. What the sessions report is queued and written by a thread of its own in transactions of a few
/// thousand rows; nothing is kept once written. At the end the tracking URLs (with the oracle's expectations) and
/// the run's report are written, so the report can be regenerated from the rows (`FleetResultsReader`).
public final class FleetResults: Sendable {
    /// One row to write.
    enum Row: Sendable {
        case session(FleetResultsSession)
        case event(session: Int, name: String, playhead: Double)
        case beacon(FleetResultsBeacon)
        case received(row: Int)
    }

    /// The schema, version 1.
    static let schema = """
        PRAGMA journal_mode=DELETE;
        PRAGMA synchronous=OFF;
        CREATE TABLE run (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE tracking_urls (row INTEGER PRIMARY KEY, event TEXT NOT NULL, source TEXT NOT NULL, template TEXT NOT NULL,
          offset_seconds REAL, ad INTEGER, expected INTEGER NOT NULL);
        CREATE TABLE sessions (session INTEGER PRIMARY KEY, scenario TEXT NOT NULL, network TEXT, ending TEXT NOT NULL,
          loaded INTEGER NOT NULL, reward_granted INTEGER NOT NULL, reward_forfeited INTEGER NOT NULL, rebuffers INTEGER NOT NULL,
          stalled_seconds REAL NOT NULL);
        CREATE TABLE events (session INTEGER NOT NULL, event TEXT NOT NULL, playhead_seconds REAL NOT NULL);
        CREATE TABLE beacons (session INTEGER, row INTEGER, attempt INTEGER NOT NULL, final INTEGER NOT NULL, sent INTEGER NOT NULL,
          sent_at_ms INTEGER, status INTEGER, latency_us INTEGER, delivered INTEGER NOT NULL, failure TEXT);
        CREATE TABLE received (row INTEGER NOT NULL);
        """

    private struct Queue {
        var rows: [Row] = []
        var closing = false
    }

    private let queue = Locked(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let failure = Locked<String?>(nil)
    private let connection: SQLiteConnection
    /// Rows queued before the writer is woken.
    static let batch = 4096

    /// Where the database goes once finished.
    public let path: String
    /// Where it is written meanwhile: nothing at `path` is touched until the run's outputs are written (a media file
    /// that turns out to be there refuses the run first).
    private var partial: String { path + ".partial" }

    /// Creates the database beside `path` (an output: checked against the inputs by the caller) and starts its writer.
    public init(path: String) throws(SQLiteError) {
        self.path = path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + ".partial" + suffix) }
        connection = try SQLiteConnection(path: path + ".partial")
        try connection.execute(Self.schema)
        let thread = Thread { [self] in writeUntilClosed() }
        thread.name = "vplay results"
        thread.start()
    }

    /// Queues `row`; the writer takes it soon.
    func append(_ row: Row) {
        let full = queue.withLock { queue in
            queue.rows.append(row)
            return queue.rows.count == Self.batch
        }
        if full { wake.signal() }
    }

    /// Stops the writer (what is queued is written first); true once, false after.
    private func stopWriter() -> Bool {
        let first = queue.withLock { queue in
            defer { queue.closing = true }
            return !queue.closing
        }
        guard first else { return false }
        wake.signal()
        done.wait()
        return true
    }

    /// The run ended before any output was written (a usage error): the partial database is removed.
    public func discard() {
        guard stopWriter() else { return }
        connection.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: partial + suffix) }
    }

    /// Writes what is queued and the run's `report` and tracking URLs, closes the database and puts it at `path`;
    /// what failed, if anything did.
    public func finish(_ report: FleetReport) -> String? {
        guard stopWriter() else { return nil }
        defer { connection.close() }
        if let failed = failure.withLock({ $0 }) { return failed }
        do {
            try Self.writeEnd(report, to: connection)
            connection.close()
            guard rename(partial, path) == 0 else { return "--results \(path): \(String(cString: strerror(errno)))" }
        } catch {
            return "--results \(error.description)"
        }
        return nil
    }

    /// The tracking URLs (with the oracle's expectations) and the run's report, in one transaction (its statements
    /// finalized on return, so the connection closes).
    static func writeEnd(_ report: FleetReport, to connection: SQLiteConnection) throws(SQLiteError) {
        let json: String
        do { json = String(decoding: try report.json(), as: UTF8.self) } catch { throw SQLiteError("\(connection.path): \(error)") }
        try connection.execute("BEGIN")
        let insert = try connection.prepare("INSERT INTO tracking_urls VALUES (?,?,?,?,?,?,?)")
        for (row, beacon) in report.population.beacons.enumerated() {
            try insert.run([.init(row), .text(beacon.event), .text(beacon.source), .text(beacon.template), .init(beacon.offset), .init(beacon.ad),
                            .init(beacon.expected)])
        }
        let run = try connection.prepare("INSERT INTO run VALUES (?,?)")
        for (key, value) in [("schema", "1"), ("report", json), ("unexpected", report.population.unexpected.map(String.init) ?? "")] {
            try run.run([.text(key), .text(value)])
        }
        try connection.execute("COMMIT")
    }

    /// The writer: each batch in one transaction, until closed and drained.
    private func writeUntilClosed() {
        while true {
            _ = wake.wait(timeout: .now() + .milliseconds(200))
            let (rows, closing) = queue.withLock { queue in
                defer { queue.rows.removeAll(keepingCapacity: true) }
                return (queue.rows, queue.closing)
            }
            if !rows.isEmpty, failure.withLock({ $0 }) == nil {
                do { try write(rows) } catch { failure.withLock { $0 = "--results \(error.description)" } }
            }
            if closing, queue.withLock({ $0.rows.isEmpty }) { break }
        }
        done.signal()
    }

    private func write(_ rows: [Row]) throws(SQLiteError) {
        try connection.execute("BEGIN")
        let sessions = try connection.prepare("INSERT INTO sessions VALUES (?,?,?,?,?,?,?,?,?)")
        let events = try connection.prepare("INSERT INTO events VALUES (?,?,?)")
        let beacons = try connection.prepare("INSERT INTO beacons VALUES (?,?,?,?,?,?,?,?,?,?)")
        let received = try connection.prepare("INSERT INTO received VALUES (?)")
        for row in rows {
            switch row {
            case let .session(session): try sessions.run(session.values)
            case let .event(session, name, playhead): try events.run([.init(session), .text(name), .real(playhead)])
            case let .beacon(beacon): try beacons.run(beacon.values)
            case let .received(row): try received.run([.init(row)])
            }
        }
        try connection.execute("COMMIT")
    }
}
