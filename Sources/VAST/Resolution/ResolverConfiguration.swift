/// Settings of `VASTResolver`.
public struct ResolverConfiguration: Sendable {
    /// Maximum number of wrappers followed in one chain. Default 5: the spec says chains "should be limited to
    /// five" and players need only accept 5 (IMA iOS stops at 4, vast-client-js at 10). The 6th wrapper gets 302.
    public var maxWrapperDepth: Int
    /// Timeout of the first request. Default 8 s, IMA iOS's value for the first VAST request.
    public var firstRequestTimeout: Duration
    /// Timeout of each wrapper's request. Default 4 s, IMA iOS's value per later wrapper.
    public var wrapperTimeout: Duration
    /// Parser limits for every response.
    public var parserLimits: ParserLimits
    /// Applied to every `VASTAdTagURI` before it is requested, e.g. to expand `[CACHEBUSTING]` (vast-client-js
    /// requests the literal macro unless the integrator adds a filter). Default: unchanged.
    public var tagURLTransform: @Sendable (String) -> String

    public init(maxWrapperDepth: Int = 5, firstRequestTimeout: Duration = .seconds(8),
                wrapperTimeout: Duration = .seconds(4), parserLimits: ParserLimits = .default,
                tagURLTransform: @escaping @Sendable (String) -> String = { $0 }) {
        self.maxWrapperDepth = maxWrapperDepth
        self.firstRequestTimeout = firstRequestTimeout
        self.wrapperTimeout = wrapperTimeout
        self.parserLimits = parserLimits
        self.tagURLTransform = tagURLTransform
    }
}
