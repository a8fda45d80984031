/// `<InLine>`: everything needed to show the ad.
public struct InLine: Sendable, Hashable, Encodable {
    /// `<AdSystem>` (required by the spec).
    public var adSystem: AdSystem?
    /// `<AdTitle>` (required by the spec).
    public var adTitle: String?
    /// `<AdServingId>` (required since VAST 4.1).
    public var adServingId: String?
    /// `<Advertiser>`.
    public var advertiser: Advertiser?
    /// `<Description>`.
    public var description: String?
    /// `<Pricing>`.
    public var pricing: Pricing?
    /// `<Category>` elements (VAST 4.0).
    public var categories: [Category]
    /// `<Expires>`: seconds the response may be cached (VAST 4.1).
    public var expiresSeconds: Int?
    /// `<Impression>` elements (required, 1 or more). `about:blank` entries are kept here but are not fireable.
    public var impressions: [Impression]
    /// `<Error>` URLs of this ad.
    public var errorURLs: [String]
    /// `<ViewableImpression>` (VAST 4.0).
    public var viewableImpression: ViewableImpression?
    /// `<AdVerifications>` (VAST 4.1; also read from `<Extension type="AdVerifications">` as in VAST 2/3/4.0 tags).
    public var verifications: [Verification]
    /// `<Creatives>`.
    public var creatives: [Creative]
    /// `<Extensions>`.
    public var extensions: [Extension]

    public init(adSystem: AdSystem? = nil, adTitle: String? = nil, adServingId: String? = nil,
                advertiser: Advertiser? = nil, description: String? = nil, pricing: Pricing? = nil,
                categories: [Category] = [], expiresSeconds: Int? = nil, impressions: [Impression] = [],
                errorURLs: [String] = [], viewableImpression: ViewableImpression? = nil,
                verifications: [Verification] = [], creatives: [Creative] = [], extensions: [Extension] = []) {
        self.adSystem = adSystem
        self.adTitle = adTitle
        self.adServingId = adServingId
        self.advertiser = advertiser
        self.description = description
        self.pricing = pricing
        self.categories = categories
        self.expiresSeconds = expiresSeconds
        self.impressions = impressions
        self.errorURLs = errorURLs
        self.viewableImpression = viewableImpression
        self.verifications = verifications
        self.creatives = creatives
        self.extensions = extensions
    }

    /// The first creative with a `<Linear>`, which is the one a video player plays.
    public var linearCreative: Creative? { creatives.first { $0.linear != nil } }

    /// The typed Adcash-style `RewardedVideo` extension, if any extension carries one.
    public var rewardedExtension: RewardedExtension? {
        extensions.lazy.compactMap(\.rewarded).first
    }
}
