import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

/// What one session of a prepared ad needs, media aside: the steps before playback, why the ad does not play if it
/// does not, the ad, and what playing it means once its media is open. Each field stands on its own: `failure` says
/// whether the ad plays, `playback` what playing it is (both are set when the ad could play and is refused after:
/// a break's length limits, a fleet share's media timeout).
struct SessionPlan: Sendable {
    var steps: [PreparedAd.Step]
    /// Why the ad does not play; nil when it does (or when nothing was decided: a stopped preparation, `inspect`
    /// without the media).
    var failure: SessionError?
    var ad: ResolvedAd?
    /// `[ASSETURI]` of the media file opened for the ad, once it is open.
    var assetURI: String? = nil
    /// What playing the ad is, made once its media opened.
    var playback: Playback? = nil

    /// The tracking plan and rules of an ad whose media is open, and the network's model of its download.
    struct Playback: Sendable {
        var plan: TrackingPlan
        var rules: PlaybackRules
        /// The media's download under `--network`: playback stalls where its bytes are late.
        var delivery: MediaDelivery?
        /// In real time under `--network`: buffering as the throttled bytes really arrive.
        var measuredNetwork: PlaybackEngine.MeasuredNetwork?
    }

    /// What the ad's beacons carry as macros so far: its own facts once chosen, its media's once opened.
    var facts: AdMacroFacts? { ad.map { AdMacroFacts(ad: $0, assetURI: assetURI) } }
}
