/// `<Wrapper>`: a redirect (`VASTAdTagURI`) plus tracking that fires in addition to the InLine's.
public struct Wrapper: Sendable, Hashable, Encodable {
    /// `<AdSystem>`.
    public var adSystem: AdSystem?
    /// `<VASTAdTagURI>`: where the next VAST response is (required).
    public var vastAdTagURI: String
    /// `followAdditionalWrappers` attribute. Absent means `true` (spec default): the target may be another wrapper.
    public var followAdditionalWrappers: Bool?
    /// `allowMultipleAds` attribute. Absent means `false` (spec default): only one ad of the target is used.
    public var allowMultipleAds: Bool?
    /// `fallbackOnNoAd` attribute. `nil` when absent.
    public var fallbackOnNoAd: Bool?
    /// `<Impression>` elements.
    public var impressions: [Impression]
    /// `<Error>` URLs.
    public var errorURLs: [String]
    /// `<ViewableImpression>`.
    public var viewableImpression: ViewableImpression?
    /// `<AdVerifications>`.
    public var verifications: [Verification]
    /// `<Pricing>`.
    public var pricing: Pricing?
    /// `<BlockedAdCategories>` values (VAST 4.1).
    public var blockedAdCategories: [Category]
    /// `<Creatives>`: tracking-only Linear, companions, icons, ClickThrough (4.2).
    public var creatives: [Creative]
    /// `<Extensions>`.
    public var extensions: [Extension]

    public init(adSystem: AdSystem? = nil, vastAdTagURI: String, followAdditionalWrappers: Bool? = nil,
                allowMultipleAds: Bool? = nil, fallbackOnNoAd: Bool? = nil, impressions: [Impression] = [],
                errorURLs: [String] = [], viewableImpression: ViewableImpression? = nil,
                verifications: [Verification] = [], pricing: Pricing? = nil, blockedAdCategories: [Category] = [],
                creatives: [Creative] = [], extensions: [Extension] = []) {
        self.adSystem = adSystem
        self.vastAdTagURI = vastAdTagURI
        self.followAdditionalWrappers = followAdditionalWrappers
        self.allowMultipleAds = allowMultipleAds
        self.fallbackOnNoAd = fallbackOnNoAd
        self.impressions = impressions
        self.errorURLs = errorURLs
        self.viewableImpression = viewableImpression
        self.verifications = verifications
        self.pricing = pricing
        self.blockedAdCategories = blockedAdCategories
        self.creatives = creatives
        self.extensions = extensions
    }

    /// `followAdditionalWrappers` with the spec default (`true`) applied.
    public var followsAdditionalWrappers: Bool { followAdditionalWrappers ?? true }
    /// `allowMultipleAds` with the spec default (`false`) applied.
    public var allowsMultipleAds: Bool { allowMultipleAds ?? false }
}
