/// A `--loudness` value vplay does not read.
public struct CreativeTargetError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { message }
}
