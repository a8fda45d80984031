/// What SQLite refused, with the database's path.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
