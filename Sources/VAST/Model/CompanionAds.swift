/// `<CompanionAds required="…">`: companion banners / end cards.
public struct CompanionAds: Sendable, Hashable, Encodable {
    /// `required` attribute: which companions must be shown for the ad to count (`nil` when absent = none).
    public var required: CompanionRequirement?
    /// `<Companion>` elements.
    public var companions: [Companion]

    public init(required: CompanionRequirement? = nil, companions: [Companion] = []) {
        self.required = required
        self.companions = companions
    }
}
