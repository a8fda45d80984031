/// A fixed answer the sink serves at one path.
public struct SinkDocument: Sendable, Equatable {
    public var contentType: String
    public var body: [UInt8]

    public init(contentType: String, body: [UInt8]) {
        self.contentType = contentType
        self.body = body
    }
}
