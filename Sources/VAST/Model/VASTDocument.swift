/// One parsed VAST response: the `<VAST>` root with its ads, root `<Error>` URLs and parse warnings.
public struct VASTDocument: Sendable, Hashable, Encodable {
    /// The `version` attribute of `<VAST>` as written (`"4.1"`), or `nil` when absent.
    public var version: String?
    /// The `<Ad>` elements that parsed, in document order.
    public var ads: [Ad]
    /// Root `<VAST><Error>` URLs. The spec reserves them for no-ad responses (fire with 303).
    public var errorURLs: [String]
    /// Problems that did not stop parsing (unknown tracking events, `notUsed`, unknown macros, missing recommended
    /// elements, skipped broken ads…).
    public var warnings: [VASTWarning]
    /// Broken `<Ad>`s that were skipped (error 101 each), in document order. Only present when some other ad
    /// parsed; when none did, the parse throws 101 instead.
    public var invalidAds: [InvalidAd]

    public init(version: String?, ads: [Ad], errorURLs: [String], warnings: [VASTWarning], invalidAds: [InvalidAd] = []) {
        self.version = version
        self.ads = ads
        self.errorURLs = errorURLs
        self.warnings = warnings
        self.invalidAds = invalidAds
    }

    /// Ads that belong to a pod (have a `sequence`), sorted by sequence; equal sequences keep document order.
    public var podAds: [Ad] {
        ads.enumerated()
            .filter { $0.element.sequence != nil }
            .sorted { ($0.element.sequence!, $0.offset) < ($1.element.sequence!, $1.offset) }
            .map(\.element)
    }

    /// Stand-alone ("buffet") ads, without `sequence`, in document order. They are the fallback when pod ads fail.
    public var buffetAds: [Ad] { ads.filter { $0.sequence == nil } }

    /// Pod ads in sequence order followed by buffet ads in document order: the order in which a player tries them.
    public var adsInPlayOrder: [Ad] { podAds + buffetAds }
}
