/// One HTTP header as received, name as the server wrote it.
public struct HeaderField: Sendable, Equatable {
    /// The header's name, as written.
    public var name: String
    /// The header's value.
    public var value: String

    /// A header `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
