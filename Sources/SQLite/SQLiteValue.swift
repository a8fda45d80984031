/// A value bound to a statement or read from a row.
public enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null

    public init(_ value: Int?) { self = value.map { .integer(Int64($0)) } ?? .null }
    public init(_ value: Double?) { self = value.map { .real($0) } ?? .null }
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }

    public var int: Int? {
        switch self {
        case let .integer(number): Int(number)
        case let .real(number): Int(number)
        case let .text(text): Int(text)
        case .null: nil
        }
    }

    public var double: Double? {
        switch self {
        case let .integer(number): Double(number)
        case let .real(number): number
        case let .text(text): Double(text)
        case .null: nil
        }
    }

    public var string: String? {
        switch self {
        case let .integer(number): String(number)
        case let .real(number): String(number)
        case let .text(text): text
        case .null: nil
        }
    }
}
