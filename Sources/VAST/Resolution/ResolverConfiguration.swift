import XMLReading
/// Settings of `VASTResolver`.
public struct ResolverConfiguration: Sendable {
    /// Maximum number of wrappers followed in one chain. Default 5: the spec says chains "should be limited to
    /// five" and players need only accept 5 (IMA iOS stops at 4, vast-client-js at 10). The 6th wrapper gets 302.
    public var maxWrapperDepth: Int
    /// Timeout of the first request. Default 8 s, IMA iOS's value for the first VAST request.
    public var firstRequestTimeout: Duration
    /// Timeout of each wrapper's request. Default 4 s, IMA iOS's value per later wrapper.
    public var wrapperTimeout: Duration
    /// Maximum requests in one resolution, the first request included. Default 32: a pod of six ads, each behind a
    /// full chain of five wrappers, needs 31; a fan-out of wrappers (10 `allowMultipleAds` wrappers per level, three
    /// levels deep, is 1 110 requests from a 1 KB tag) does not fit. A wrapper met once the budget is spent is not
    /// requested: its chain gets **302** (wrapper limit reached; the VAST 4.x table's code for "too many wrapper
    /// responses").
    public var maxRequests: Int
    /// Total time the requests of one resolution may take, measured on the resolver's clock. Default 28 s: a single
    /// chain at the depth limit with every hop at its timeout (8 s + 5 × 4 s); more time than that is spent on many
    /// chains, not one. Each request's timeout is cut to what is left; a wrapper met once nothing is left is not
    /// requested and its chain gets **301** (the player-defined wrapper timeout of the VAST 4.x table).
    public var resolutionTimeout: Duration
    /// Parser limits for every response.
    public var parserLimits: ParserLimits
    /// What the player can play: an ad is playable when `MediaFileSelector.checkPlayable` accepts one of
    /// its Linear's MediaFiles with these criteria (only `forcedFile` changes the answer). The default ad is the
    /// first playable one; unplayable ads before it are reported as failures (see `VASTResolver`).
    public var mediaCriteria: MediaSelectionCriteria
    /// A Linear whose `InteractiveCreativeFile` has `variableDuration="true"`: unplayable (409) or played from its
    /// MediaFile. Default `refuse` (SIMID 1.2 §5).
    public var variableDuration: VariableDurationPolicy = .refuse
    /// Applied to every `VASTAdTagURI` before it is requested, e.g. to expand `[CACHEBUSTING]` (vast-client-js
    /// requests the literal macro unless the integrator adds a filter). Loop detection compares URIs *before*
    /// this transform, so fresh cache-busters cannot hide a loop. Default: unchanged.
    public var tagURLTransform: @Sendable (String) -> String
    /// The player's own blocked ad categories (codes such as `IAB25`), sent first in a wrapper's
    /// `[BLOCKEDADCATEGORIES]`, before those of the chain's `<BlockedAdCategories>`. Default: none.
    public var blockedAdCategories: [String] = []
    /// Resolve an ad pod as a pod (`VASTResolution.pod`): every pod ad judged, stand-alone ads kept as substitutes
    /// and resolved only when one is needed. Default false: the first playable ad is all that matters.
    public var playsPods = false

    public init(maxWrapperDepth: Int = 5, firstRequestTimeout: Duration = .seconds(8),
                wrapperTimeout: Duration = .seconds(4), maxRequests: Int = 32,
                resolutionTimeout: Duration = .seconds(28), parserLimits: ParserLimits = .default,
                mediaCriteria: MediaSelectionCriteria = .init(),
                tagURLTransform: @escaping @Sendable (String) -> String = { $0 }) {
        self.maxWrapperDepth = maxWrapperDepth
        self.firstRequestTimeout = firstRequestTimeout
        self.wrapperTimeout = wrapperTimeout
        self.maxRequests = maxRequests
        self.resolutionTimeout = resolutionTimeout
        self.parserLimits = parserLimits
        self.mediaCriteria = mediaCriteria
        self.tagURLTransform = tagURLTransform
    }
}
