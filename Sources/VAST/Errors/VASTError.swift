/// The one error type of the `VAST` module.
///
/// `code` is the numeric VAST error code (stable; it is what `[ERRORCODE]` carries). `errorURLs` lists the `<Error>`
/// URLs that should be fired with that code when the error is known to belong to some ads (for example the root
/// `<VAST><Error>` URLs of an empty response, or every wrapper of a chain that hit the depth limit); the library never
/// fires them itself.
public struct VASTError: Error, Sendable, Hashable, Encodable, CustomStringConvertible {
    /// The VAST error code.
    public var code: VASTErrorCode
    /// A human-readable explanation (for logs and `vplay inspect`), not meant to be parsed.
    public var message: String
    /// `<Error>` URLs to fire with `code`, each with where it came from. May be empty.
    public var errorURLs: [SourcedURL]
    /// How long the failed fetch took, when it was measured before the resolver asked (a session that fetched its
    /// tag once to tell VMAP from VAST): the hop's time. Not encoded.
    public var recordedElapsed: Duration?

    private enum CodingKeys: String, CodingKey { case code, message, errorURLs }

    public init(_ code: VASTErrorCode, _ message: String, errorURLs: [SourcedURL] = []) {
        self.code = code
        self.message = message
        self.errorURLs = errorURLs
    }

    public var description: String { "VAST error \(code.rawValue): \(message)" }
}
