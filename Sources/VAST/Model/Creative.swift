/// `<Creative>`: one of Linear, CompanionAds or NonLinearAds, plus identifiers.
public struct Creative: Sendable, Hashable, Encodable {
    /// `id` attribute.
    public var id: String?
    /// `adId` attribute (deprecated in favour of UniversalAdId).
    public var adId: String?
    /// `sequence` attribute.
    public var sequence: Int?
    /// `apiFramework` attribute.
    public var apiFramework: String?
    /// `<UniversalAdId>` elements (several allowed since VAST 4.2).
    public var universalAdIds: [UniversalAdId]
    /// `<Linear>`.
    public var linear: Linear?
    /// `<CompanionAds>`.
    public var companionAds: CompanionAds?
    /// `<NonLinearAds>` (parsed; vplay does not play them).
    public var nonLinearAds: NonLinearAds?

    public init(id: String? = nil, adId: String? = nil, sequence: Int? = nil, apiFramework: String? = nil,
                universalAdIds: [UniversalAdId] = [], linear: Linear? = nil, companionAds: CompanionAds? = nil,
                nonLinearAds: NonLinearAds? = nil) {
        self.id = id
        self.adId = adId
        self.sequence = sequence
        self.apiFramework = apiFramework
        self.universalAdIds = universalAdIds
        self.linear = linear
        self.companionAds = companionAds
        self.nonLinearAds = nonLinearAds
    }
}
