/// Why a playlist cannot be played as a stream with interstitials (exit 3, one line).
public struct InterstitialError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
