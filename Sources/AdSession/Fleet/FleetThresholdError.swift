/// Why `--threshold` cannot be read (a usage error).
public struct FleetThresholdError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
