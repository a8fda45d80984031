import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

/// The facts of an ad its beacons carry as macros (`[ADSERVINGID]`, `[UNIVERSALADID]`, `[PODSEQUENCE]`, `[ADTYPE]`,
/// `[ADCATEGORIES]`, `[ADCOUNT]`), and `[ASSETURI]` once its media file is open: a value handed to the beacon step
/// with what it fires.
struct AdMacroFacts: Sendable {
    var ad: ResolvedAd
    /// The opened media file's absolute URL before any `--map`; nil before it opens (or when it did not).
    var assetURI: String? = nil
}
