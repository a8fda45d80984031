/// Which ad of an ad break (a pod) something belongs to.
public struct BreakAd: Sendable, Equatable, Codable {
    /// 1-based place in the break, in play order (a substitute takes the place of the ad it replaces).
    public var index: Int
    /// The ad's `<Ad id>`.
    public var id: String?
    /// Its pod `sequence`; nil for a stand-alone ad.
    public var sequence: Int?

    /// The ad at 1-based place `index` of the break, with its `<Ad id>` and pod `sequence` (nil when stand-alone).
    public init(index: Int, id: String?, sequence: Int?) {
        self.index = index
        self.id = id
        self.sequence = sequence
    }
}
