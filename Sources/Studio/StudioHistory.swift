import Foundation
import Primitives
import SQLite

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

    /// The connection, used under the lock only; nil keeps the list in memory.
    private let database: Locked<SQLiteConnection?>
    private let memory = Locked<[Entry]>([])

    /// Opens (or creates) the database at `path`; nil keeps the list in memory.
    public init(path: String?) throws {
        guard let path else {
            database = Locked(nil)
            return
        }
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("""
                PRAGMA journal_mode=WAL;
                CREATE TABLE IF NOT EXISTS runs (
                  id TEXT PRIMARY KEY, kind TEXT NOT NULL, title TEXT NOT NULL, created TEXT NOT NULL,
                  state TEXT NOT NULL, exit_code INTEGER, arguments TEXT NOT NULL, summary TEXT NOT NULL DEFAULT '');
                """)
            database = Locked(connection)
        } catch {
            throw StudioError("the history database \(error)")
        }
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
        let rows: [[String?]]? = try database.withLock { connection throws -> [[String?]]? in
            guard let connection else { return nil }
            do {
                return try connection.query("SELECT id, kind, title, created, state, exit_code, arguments, summary FROM runs ORDER BY created DESC, id DESC")
                    .map { $0.map(\.string) }
            } catch { throw StudioError("the history database: \(error)") }
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

    /// Runs a statement with text parameters; false when there is no database.
    private func write(_ sql: String, _ parameters: [String?]) throws -> Bool {
        try database.withLock { connection throws -> Bool in
            guard let connection else { return false }
            do { try connection.query(sql, parameters.map(SQLiteValue.init)) } catch { throw StudioError("the history database: \(error)") }
            return true
        }
    }
}
