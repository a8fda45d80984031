import Findings
import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

/// The one product of resolve → select → open → plan: what `run`, `fleet` and `inspect` all start from. The
/// resolver's chain and how preparation ended: interrupted, or the break ready to play — each turn with its plan
/// (the steps before its first frame, its tracking plan and rules, or its failure) and its media file (opened with
/// the fallback to the next file, or only chosen). Built by `AdPreparation`.
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

    /// Something a session reports or fires before its first frame, in the order it happens. What a step fires
    /// carries the macro facts it is fired with (nil: none of an ad's).
    enum Step: Sendable {
        case warning(Finding)
        /// The ad cannot play: the error is reported, then its Error URLs fire with its code.
        case failure(SessionError, errorTargets: [TrackingPlan.Target], facts: AdMacroFacts?)
        /// Tracking URLs fired before playback: a failed chain's Error URLs with its code, a verification's
        /// `verificationNotExecuted` with its `[REASON]`.
        case fire([TrackingPlan.Target], errorCode: VASTErrorCode?, reason: Int?, facts: AdMacroFacts?)
        case resolved(ResolvedInfo)
    }

    /// A turn's media as preparation leaves it: opened and positioned (a session plays it), or only chosen (the file
    /// `inspect --no-media` names, or the best file when none opened, for the report).
    enum TurnMedia {
        case opened(Media)
        case chosen(MediaSelection)

        /// The media opened, if it was.
        var opened: Media? { if case let .opened(media) = self { media } else { nil } }
        var selection: MediaSelection {
            switch self {
            case let .opened(media): media.selection
            case let .chosen(selection): selection
            }
        }
    }

    /// How preparation ended, each way with what it carries.
    enum Outcome {
        /// Stopped (a signal) before anything could play: nothing plays, nothing is an error of the ad, no Error URL
        /// of it is told anything. `steps`: what was met before (warnings; failed chains beside the ad still fire
        /// their codes); `ad`: the ad chosen, when the stop came while its media opened.
        case interrupted(steps: [Step], ad: ResolvedAd?)
        /// The session's break: a single ad's one turn (whose plan carries its failure when it cannot play: no ad, no
        /// media file that opens, a usage error), or a pod's prelude (its failure when none of it can play) and turns.
        case ready(AdBreak<TurnMedia>)
    }

    var resolution: VASTResolution
    var outcome: Outcome

    /// The session's break: `interrupted` is a single turn that takes its steps and plays nothing.
    var adBreak: AdBreak<TurnMedia> {
        switch outcome {
        case let .ready(adBreak): adBreak
        case let .interrupted(steps, ad): .single(SessionPlan(steps: steps, ad: ad), media: nil)
        }
    }

    /// The simulated network's startup delay of the first turn that plays (zero without one): between the end of
    /// preparation and its first frame.
    var startupDelay: Duration {
        adBreak.turns.first(where: \.plays)?.media?.opened?.delivery?.startupDelay ?? .zero
    }

    /// Whether a turn of the break plays.
    var plays: Bool { adBreak.turns.contains(where: \.plays) }

    /// The turn a report describes: a single ad's, or a pod's first that can play (none when none can).
    var leadTurn: AdTurn<TurnMedia>? {
        guard case let .ready(adBreak) = outcome else { return nil }
        return adBreak.kind == .single ? adBreak.turns.first : adBreak.turns.first { $0.failure == nil }
    }

    /// An ad pod's turns (empty for a single ad).
    var pod: [AdTurn<TurnMedia>] {
        if case let .ready(adBreak) = outcome, adBreak.kind == .pod { return adBreak.turns }
        return []
    }

    /// Why nothing plays: a single ad's error, or a pod's when none of it can play; nil when it plays.
    var failure: SessionError? {
        guard case let .ready(adBreak) = outcome else { return nil }
        return adBreak.kind == .single ? adBreak.turns.first?.failure : adBreak.prelude.failure
    }

    /// The ad that plays (the lead turn's; an interrupted one's, chosen before the stop), and the media it opened.
    var ad: ResolvedAd? {
        if case let .interrupted(_, ad) = outcome { return ad }
        return leadTurn?.plan.ad
    }
    var media: Media? { leadTurn?.media?.opened }

    /// The warnings before playback, in order (what a fleet reports once for all its sessions): a single ad's, or a
    /// pod's prelude's (each pod ad's are its turn's).
    var warnings: [Finding] { adBreak.kind == .single ? (adBreak.turns.first?.plan.steps.warnings ?? []) : adBreak.prelude.steps.warnings }
}

extension [PreparedAd.Step] {
    /// The warnings, in order.
    var warnings: [Finding] {
        compactMap { if case let .warning(finding) = $0 { finding } else { nil } }
    }

    /// The tracking URLs fired before playback, each with its code and reason (a fleet's report lists them).
    var preludeBeacons: [(targets: [TrackingPlan.Target], errorCode: VASTErrorCode?, reason: Int?)] {
        compactMap { step in
            switch step {
            case let .fire(targets, code, reason, _): (targets, code, reason)
            case let .failure(error, targets, _): (targets, error.code, nil)
            case .warning, .resolved: nil
            }
        }
    }
}
