import CSQLite
import Foundation
import Primitives

/// The studio's run history: one row a run in an embedded SQLite database (`DATA/history.sqlite`), beside the run
/// folders (`DATA/runs/ID/`). Without history (`--no-history`) nothing is opened and the list lives in memory only.
public final class StudioHistory: Sendable {
    public struct Entry: Sendable, Equatable {
        public var id: String
        public var kind: String
        public var title: String
        /// ISO 8601, UTC.
        public var created: String
        /// running, done, failed, stopped.
        public var state: String
        public var exitCode: Int?
        /// The child's arguments, JSON.
        public var arguments: String
        /// The last `summary` line of the run's stream (or the fleet/audit report's headline), JSON; empty while it runs.
        public var summary: String
    }

    private let database: Locked<Handle>
    private let memory = Locked<[Entry]>([])

    /// The connection, opened with SQLITE_OPEN_FULLMUTEX and used under the lock only.
    private struct Handle: @unchecked Sendable {
        var pointer: OpaquePointer?
    }

    /// Opens (or creates) the database at `path`; nil keeps the list in memory.
    public init(path: String?) throws {
        guard let path else {
            database = Locked(Handle(pointer: nil))
            return
        }
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close(handle)
            throw StudioError("the history database \(path): \(message)")
        }
        database = Locked(Handle(pointer: handle))
        try execute("""
            PRAGMA journal_mode=WAL;
            CREATE TABLE IF NOT EXISTS runs (
              id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT NOT NULL, created TEXT NOT NULL,
              state TEXT NOT NULL, exit_code INTEGER, arguments TEXT NOT NULL, summary TEXT NOT NULL DEFAULT '');
            """)
    }

    deinit {
        _ = database.withLock { sqlite3_close($0.pointer) }
    }

    public func insert(_ entry: Entry) throws {
        if try write("INSERT INTO runs (id, kind, title, created, state, exit_code, arguments, summary) VALUES (?,?,?,?,?,?,?,?)",
                     [entry.id, entry.kind, entry.title, entry.created, entry.state, entry.exitCode.map(String.init), entry.arguments, entry.summary]) { return }
        memory.withLock { $0.append(entry) }
    }

    public func finish(id: String, state: String, exitCode: Int?, summary: String) throws {
        if try write("UPDATE runs SET state = ?, exit_code = ?, summary = ? WHERE id = ?", [state, exitCode.map(String.init), summary, id]) { return }
        memory.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
            entries[index].state = state
            entries[index].exitCode = exitCode
            entries[index].summary = summary
        }
    }

    public func delete(id: String) throws {
        if try write("DELETE FROM runs WHERE id = ?", [id]) { return }
        memory.withLock { $0.removeAll { $0.id == id } }
    }

    /// Every run, newest first.
    public func list() throws -> [Entry] {
        let rows: [[String?]]? = try database.withLock { box throws -> [[String?]]? in
            guard let handle = box.pointer else { return nil }
            return try Self.query(handle, "SELECT id, kind, title, created, state, exit_code, arguments, summary FROM runs ORDER BY created DESC, id DESC")
        }
        guard let rows else { return memory.withLock { $0.reversed() } }
        return rows.map { row in
            Entry(id: row[0] ?? "", kind: row[1] ?? "", title: row[2] ?? "", created: row[3] ?? "", state: row[4] ?? "",
                  exitCode: row[5].flatMap { Int($0) }, arguments: row[6] ?? "[]", summary: row[7] ?? "")
        }
    }

    public func entry(id: String) throws -> Entry? {
        try list().first { $0.id == id }
    }

    // MARK: SQLite

    private func execute(_ sql: String) throws {
        try database.withLock { box throws in
            guard let handle = box.pointer else { return }
            var error: UnsafeMutablePointer<CChar>?
            if sqlite3_exec(handle, sql, nil, nil, &error) != SQLITE_OK {
                let message = error.map { String(cString: $0) } ?? "error"
                sqlite3_free(error)
                throw StudioError("the history database: \(message)")
            }
        }
    }

    /// Runs a statement with text parameters; false when there is no database.
    private func write(_ sql: String, _ parameters: [String?]) throws -> Bool {
        try database.withLock { box throws -> Bool in
            guard let handle = box.pointer else { return false }
            _ = try Self.query(handle, sql, parameters)
            return true
        }
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    private static func query(_ handle: OpaquePointer, _ sql: String, _ parameters: [String?] = []) throws -> [[String?]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw StudioError("the history database: \(String(cString: sqlite3_errmsg(handle)))")
        }
        defer { sqlite3_finalize(statement) }
        for (index, parameter) in parameters.enumerated() {
            if let parameter {
                sqlite3_bind_text(statement, Int32(index + 1), parameter, -1, transient)
            } else {
                sqlite3_bind_null(statement, Int32(index + 1))
            }
        }
        var rows: [[String?]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { break }
            guard step == SQLITE_ROW else { throw StudioError("the history database: \(String(cString: sqlite3_errmsg(handle)))") }
            let columns = sqlite3_column_count(statement)
            rows.append((0..<columns).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) }
            })
        }
        return rows
    }
}
