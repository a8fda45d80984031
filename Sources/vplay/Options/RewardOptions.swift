import AdSession
import ArgumentParser
import PlayerEngine

/// The reward and the closing rules of a run: what is granted and when, when the video may be closed, the end card.
struct RewardOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The reward when the tag has no RewardedVideo extension, or to override it.", valueName: "CURRENCY:AMOUNT"),
            transform: Self.reward)
    var reward: Reward?

    @Option(help: .withDefault("When the reward is granted: complete (default), a percentage (50%) or seconds played (15s).", "complete", valueName: "threshold"),
            transform: Self.threshold)
    var rewardAt: PlaybackRules.RewardThreshold = .complete

    @Option(help: .withDefault("When the video may be closed early: anytime (default), never, or after N seconds played (5s).", "anytime", valueName: "when"),
            transform: Self.videoClose)
    var videoClose: PlaybackRules.VideoClose = .anytime

    @Option(parsing: .unconditional, help: .withDefault("Seconds before the end card's close control appears (its countdown waits while the app is not active).", seconds: .zero),
            transform: OptionValue.seconds(else: "--close-delay must be 0 or more seconds, at most a year"))
    var closeDelay: Duration = .zero

    @Flag(help: "Close after a skip instead of showing the end card.")
    var noEndCardAfterSkip = false

    /// Applies these options to a session configuration.
    func apply(to configuration: inout SessionConfiguration) {
        configuration.reward = reward
        configuration.rewardThreshold = rewardAt
        configuration.videoClose = videoClose
        configuration.closeDelay = closeDelay
        configuration.endCardAfterSkip = !noEndCardAfterSkip
    }

    /// `CURRENCY:AMOUNT`, split at the last colon: `Coins:10`, `Gems:2.5`.
    @Sendable static func reward(_ text: String) throws -> Reward {
        guard let colon = text.lastIndex(of: ":"), colon > text.startIndex,
              let amount = Double(text[text.index(after: colon)...]), amount.isFinite else {
            throw ValidationError("--reward must look like Coins:10")
        }
        return Reward(currency: String(text[..<colon]), amount: amount)
    }

    /// `complete`, a percentage from 0 to 100 (`50%`) or seconds played (`15s`, or `15`).
    @Sendable static func threshold(_ text: String) throws -> PlaybackRules.RewardThreshold {
        if text == "complete" { return .complete }
        if text.hasSuffix("%"), let value = Double(text.dropLast()), value >= 0, value <= 100 { return .percent(value) }
        guard let played = seconds(text) else { throw ValidationError("--reward-at must be complete, a percentage (50%) or seconds (15s)") }
        return .played(played)
    }

    /// `anytime`, `never`, or seconds played (`5s`, or `5`).
    @Sendable static func videoClose(_ text: String) throws -> PlaybackRules.VideoClose {
        switch text {
        case "anytime": return .anytime
        case "never": return .never
        default:
            guard let after = seconds(text) else { throw ValidationError("--video-close must be anytime, never or seconds (5s)") }
            return .after(after)
        }
    }

    /// `N` or `Ns`: 0 or more seconds, at most a year, as whole milliseconds.
    private static func seconds(_ text: String) -> Duration? {
        let number = text.hasSuffix("s") ? String(text.dropLast()) : text
        guard let value = Double(number), OptionRanges.isSeconds(value) else { return nil }
        return OptionRanges.duration(seconds: value)
    }
}
