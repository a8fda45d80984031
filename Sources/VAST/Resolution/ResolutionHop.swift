/// One request made while resolving (for `vplay inspect`): the tag the user named is depth 0, the target of a
/// depth-n wrapper is depth n.
public struct ResolutionHop: Sendable, Hashable, Encodable {
    /// How a hop ended.
    public enum Outcome: Sendable, Hashable, Encodable {
        /// A VAST document with this many ads.
        case vast(adCount: Int)
        /// The response was a valid no-ad VAST (303).
        case noAd
        /// Failed with this error (301 for fetch failures and timeouts, 102, 101…).
        case failed(VASTError)
        /// Not requested at all (non-http(s) URI, loop, depth limit): the reason's error.
        case refused(VASTError)
    }

    /// 0 for the first request; n for the target of the depth-n wrapper.
    public var depth: Int
    /// The requested URL (after `ResolverConfiguration.tagURLTransform`).
    public var url: String
    /// What happened.
    public var outcome: Outcome
    /// Time from request to parsed document (or failure), measured on the resolver's clock. Zero when refused.
    public var elapsed: Duration
    /// `<AdSystem>` names of the ads in the response, in document order (duplicates removed).
    public var adSystems: [String]

    public init(depth: Int, url: String, outcome: Outcome, elapsed: Duration, adSystems: [String]) {
        self.depth = depth
        self.url = url
        self.outcome = outcome
        self.elapsed = elapsed
        self.adSystems = adSystems
    }

    private enum CodingKeys: String, CodingKey { case depth, url, outcome, elapsedMilliseconds, adSystems }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(depth, forKey: .depth)
        try c.encode(url, forKey: .url)
        try c.encode(outcome, forKey: .outcome)
        try c.encodeMilliseconds(elapsed, forKey: .elapsedMilliseconds)
        try c.encode(adSystems, forKey: .adSystems)
    }
}
