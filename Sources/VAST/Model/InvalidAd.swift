/// An `<Ad>` the parser skipped because it is broken (error 101): neither `<InLine>` nor `<Wrapper>`, or a
/// `<Wrapper>` without `<VASTAdTagURI>`. The resolver reports it as a failure so its Error URLs still get the code.
public struct InvalidAd: Sendable, Hashable, Encodable {
    /// Error 101 with the `<Error>` URLs found in the broken ad (its own, when its InLine/Wrapper element exists,
    /// even mis-cased) followed by the response's root `<VAST><Error>` URLs.
    public var error: VASTError
    /// The ad's `id` attribute.
    public var id: String?
    /// The ad's `sequence` attribute, when it is an integer.
    public var sequence: Int?

    public init(error: VASTError, id: String?, sequence: Int?) {
        self.error = error
        self.id = id
        self.sequence = sequence
    }
}
