import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

/// The one product of resolve → select → open → plan: what `run`, `fleet` and `inspect` all start from. The
/// resolver's chain and its selection, the media file opened (with the fallback to the next file), the tracking
/// plan and the player's rules, and every warning met, in order. Built by `AdPreparation`.
struct PreparedAd {
    /// The media file opened for the ad that plays.
    struct Media {
        var selection: MediaSelection
        /// Where it was opened (a local path under `--map`, else the URL).
        var location: String
        /// Open and positioned before its first frame (header read, nothing decoded).
        var source: any MediaSource
        /// `[ASSETURI]`: the file's absolute URL before any `--map`.
        var assetURI: String
        /// Its download under `--network`, if any.
        var delivery: MediaDelivery?
        /// In real time under `--network`: the buffering policy for the bytes as they really arrive.
        var measuredNetwork: PlaybackEngine.MeasuredNetwork?
        /// How an HLS playlist was opened, for a session that opens it again (a fleet's `--decode-each`).
        var streaming: StreamingOptions? = nil
        var duration: Duration { source.info.exactDuration }
    }

    /// Something a session reports or fires before its first frame, in the order it happens.
    enum Step: Sendable {
        case warning(String)
        /// The ad cannot play: the error is reported, then its Error URLs fire with its code.
        case failure(SessionError, errorTargets: [TrackingPlan.Target])
        /// Tracking URLs fired before playback: a failed chain's Error URLs with its code, a verification's
        /// `verificationNotExecuted` with its `[REASON]`.
        case fire([TrackingPlan.Target], errorCode: VASTErrorCode?, reason: Int?)
        case resolved(ResolvedInfo)
        /// From here on, beacons carry the playing ad's macros (`[ADSERVINGID]`, `[UNIVERSALADID]`, `[ADCOUNT]`…).
        case adChosen(ResolvedAd)
        /// From here on, beacons carry `[ASSETURI]`, the opened file's absolute URL.
        case mediaOpened(assetURI: String)
    }

    var resolution: VASTResolution
    /// The ad that plays (the resolver's choice); nil when none can.
    var ad: ResolvedAd?
    /// The opened media; nil when no ad plays, when opening was not asked for, or when no file opened (`failure`).
    var media: Media?
    /// The selection when media was not opened (`inspect --no-media`).
    var selection: MediaSelection?
    /// Why the ad cannot play (no ad, no media file that opens); nil when it can.
    var failure: SessionError?
    /// What a session reports and fires before playback, in order.
    var steps: [Step] = []
    var plan: TrackingPlan?
    var rules: PlaybackRules?
    /// An ad pod (two or more places): every ad it tries, in play order. Empty for a single ad; then `ad`, `media`,
    /// `plan` and `rules` are the ad that plays (with a pod, those of its first ad that plays).
    var pod: [AdTurn<Media>] = []

    /// What every session of this ad plays from (sendable: a fleet's sessions share it).
    var sessionPlan: SessionPlan {
        // In real time the bytes really arrive late (a throttle): the engine measures, the model is not replayed.
        SessionPlan(steps: steps, failure: failure, ad: ad, plan: plan, rules: rules,
                    delivery: media?.measuredNetwork == nil ? media?.delivery : nil, measuredNetwork: media?.measuredNetwork)
    }

    /// The session's break: a single ad's one turn, or the pod's prelude (what fires before it) and its turns.
    var adBreak: AdBreak<Media> {
        pod.isEmpty ? .single(sessionPlan, media: media) : AdBreak(kind: .pod, prelude: SessionPlan(steps: steps, failure: failure), turns: pod)
    }

    /// The warnings of `steps`, in order (what a fleet reports once for all its sessions).
    var warnings: [String] { steps.warnings }
}

/// What one session of a prepared ad needs, media aside: the steps before playback, the ad's failure if any, its
/// tracking plan and rules.
struct SessionPlan: Sendable {
    var steps: [PreparedAd.Step]
    var failure: SessionError?
    var ad: ResolvedAd?
    var plan: TrackingPlan?
    var rules: PlaybackRules?
    /// The media's download under `--network`: playback stalls where its bytes are late.
    var delivery: MediaDelivery?
    /// In real time under `--network`: buffering as the throttled bytes really arrive.
    var measuredNetwork: PlaybackEngine.MeasuredNetwork?
}

extension [PreparedAd.Step] {
    /// The warnings, in order.
    var warnings: [String] {
        compactMap { if case let .warning(text) = $0 { text } else { nil } }
    }

    /// The tracking URLs fired before playback, each with its code and reason (a fleet's report lists them).
    var preludeBeacons: [(targets: [TrackingPlan.Target], errorCode: VASTErrorCode?, reason: Int?)] {
        compactMap { step in
            switch step {
            case let .fire(targets, code, reason): (targets, code, reason)
            case let .failure(error, targets): (targets, error.code, nil)
            case .warning, .resolved, .adChosen, .mediaOpened: nil
            }
        }
    }
}
