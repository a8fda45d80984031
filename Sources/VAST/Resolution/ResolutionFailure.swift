/// An ad (or a whole chain) that could not be resolved to an InLine. The caller fires `error.errorURLs` with
/// `error.code` as `[ERRORCODE]`: they are the `<Error>` URLs of **every** wrapper of the chain (outermost first),
/// plus the root `<VAST><Error>` URLs of a no-ad response at the end of the chain.
public struct ResolutionFailure: Sendable, Hashable, Encodable {
    /// The error, with the URLs to fire.
    public var error: VASTError
    /// The wrapper chain that led here (outermost first). Empty for a failure of the first request.
    public var chain: [WrapperLink]
    /// The `sequence` of the top-level ad this failure replaces (its pod slot), `nil` for a buffet ad.
    public var sequence: Int?
    /// `fallbackOnNoAd` as set by the innermost *followed* wrapper of the chain that carries the attribute (a wrapper
    /// refused under `followAdditionalWrappers="false"` was never followed, so its value does not count); `nil` when
    /// none sets it. `false` forbids buffet ads from replacing this ad.
    public var fallbackOnNoAd: Bool?

    public init(error: VASTError, chain: [WrapperLink], sequence: Int?, fallbackOnNoAd: Bool?) {
        self.error = error
        self.chain = chain
        self.sequence = sequence
        self.fallbackOnNoAd = fallbackOnNoAd
    }
}
