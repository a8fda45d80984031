import AdSession
import ArgumentParser

/// How an ad pod plays, and the ad break it plays in (VAST 4.x pods; the 4.2 break macros). Taken by `run` and
/// `inspect`.
struct PodOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Play every ad of an ad pod, in sequence order (all, default) or only the first that can play (first).", valueName: "all|first"))
    var pod: SessionConfiguration.PodPlayback = .all

    @Option(help: ArgumentHelp("[BREAKPOSITION]: pre, mid or post (1, 2, 3); default stand-alone (4), a rewarded ad's.", valueName: "pre|mid|post"),
            transform: Self.position)
    var breakPosition: Int?

    @Option(help: ArgumentHelp("[BREAKMAXDURATION]: ads that would end the pod after this many seconds of media are not played (error 206).", valueName: "seconds"),
            transform: OptionValue.seconds(positive: true, else: "--break-max-duration must be a positive number of seconds"))
    var breakMaxDuration: Duration?

    @Option(help: ArgumentHelp("[BREAKMAXADS]: ads of the pod after this many are not played (error 206).", valueName: "N"),
            transform: OptionValue.integer(in: 1..., else: "--break-max-ads must be 1 or more"))
    var breakMaxAds: Int?

    @Option(help: ArgumentHelp("[BREAKMINADLENGTH]: an ad whose media is shorter is not played (206); a stand-alone ad may replace it.", valueName: "seconds"),
            transform: OptionValue.seconds(else: "--break-min-ad-length must be a number of seconds"))
    var breakMinAdLength: Duration?

    @Option(help: ArgumentHelp("[BREAKMAXADLENGTH]: an ad whose media is longer is not played (206); a stand-alone ad may replace it.", valueName: "seconds"),
            transform: OptionValue.seconds(positive: true, else: "--break-max-ad-length must be a positive number of seconds"))
    var breakMaxAdLength: Duration?

    @Sendable static func position(_ text: String) throws -> Int {
        switch text.lowercased() {
        case "pre", "preroll", "pre-roll", "1": 1
        case "mid", "midroll", "mid-roll", "2": 2
        case "post", "postroll", "post-roll", "3": 3
        case "standalone", "stand-alone", "4": 4
        default: throw ValidationError("--break-position must be pre, mid, post or standalone")
        }
    }

    func validate() throws {
        if let min = breakMinAdLength, let max = breakMaxAdLength, min > max {
            throw ValidationError("--break-min-ad-length is above --break-max-ad-length: no ad could play")
        }
    }

    func apply(to configuration: inout SessionConfiguration) {
        configuration.pod = pod
        if let breakPosition { configuration.breakRequest.position = breakPosition }
        configuration.breakRequest.maxDuration = breakMaxDuration
        configuration.breakRequest.maxAds = breakMaxAds
        configuration.breakRequest.minAdLength = breakMinAdLength
        configuration.breakRequest.maxAdLength = breakMaxAdLength
    }
}

extension SessionConfiguration.PodPlayback: ExpressibleByArgument {}
