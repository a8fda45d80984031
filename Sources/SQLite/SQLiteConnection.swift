import CSQLite

/// One connection to an SQLite database file, over the system's libsqlite3: statements run with bound values, rows
/// read as values. Not shareable between threads at once: its owner uses it under a lock or from one thread.
public final class SQLiteConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    /// Where the database is, for messages.
    public let path: String

    /// Opens the database at `path` (created when `create`; read-only when `readOnly`).
    public init(path: String, create: Bool = true, readOnly: Bool = false) throws(SQLiteError) {
        var handle: OpaquePointer?
        let flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        guard sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_FULLMUTEX, nil) == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open it"
            sqlite3_close(handle)
            throw SQLiteError("\(path): \(message)")
        }
        self.handle = handle
        self.path = path
    }

    deinit {
        sqlite3_close(handle)
    }

    /// Closes the connection now (its statements finalized first); nothing may run on it after.
    public func close() {
        sqlite3_close(handle)
        handle = nil
    }

    /// Runs `sql`, one or more statements without parameters.
    public func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        if sqlite3_exec(handle, sql, nil, nil, &error) != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "error"
            sqlite3_free(error)
            throw SQLiteError("\(path): \(message)")
        }
    }

    /// Runs one statement with `parameters` bound in order; its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        let statement = try prepare(sql)
        try statement.bind(parameters)
        var rows: [[SQLiteValue]] = []
        while let row = try statement.step() { rows.append(row) }
        return rows
    }

    /// A statement to run many times (`bind`, `step` to its end, `reset`).
    public func prepare(_ sql: String) throws(SQLiteError) -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw SQLiteError("\(path): \(String(cString: sqlite3_errmsg(handle))) in \(sql.prefix(80))")
        }
        return Statement(statement, connection: self)
    }

    fileprivate var lastError: String { "\(path): \(String(cString: sqlite3_errmsg(handle)))" }

    /// A prepared statement of this connection.
    public final class Statement {
        private let statement: OpaquePointer
        private let connection: SQLiteConnection
        private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

        fileprivate init(_ statement: OpaquePointer, connection: SQLiteConnection) {
            (self.statement, self.connection) = (statement, connection)
        }

        deinit {
            sqlite3_finalize(statement)
        }

        /// Binds `values` to the parameters in order.
        public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
            for (offset, value) in values.enumerated() {
                let index = Int32(offset + 1)
                let result = switch value {
                case let .integer(number): sqlite3_bind_int64(statement, index, number)
                case let .real(number): sqlite3_bind_double(statement, index, number)
                case let .text(text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
                case .null: sqlite3_bind_null(statement, index)
                }
                guard result == SQLITE_OK else { throw SQLiteError(connection.lastError) }
            }
        }

        /// The next row, or nil at the end.
        public func step() throws(SQLiteError) -> [SQLiteValue]? {
            switch sqlite3_step(statement) {
            case SQLITE_DONE: return nil
            case SQLITE_ROW:
                return (0..<sqlite3_column_count(statement)).map { column in
                    switch sqlite3_column_type(statement, column) {
                    case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                    case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                    case SQLITE_NULL: .null
                    default: .text(sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "")
                    }
                }
            default: throw SQLiteError(connection.lastError)
            }
        }

        /// Runs it once with `values` (an insert): bound, stepped to its end, reset for the next.
        public func run(_ values: [SQLiteValue]) throws(SQLiteError) {
            try bind(values)
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            while try step() != nil {}
        }
    }
}
