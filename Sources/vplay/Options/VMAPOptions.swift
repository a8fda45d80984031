import AdSession
import ArgumentParser

/// How a VMAP session's content runs (`vplay --vmap DOC`, or a VMAP document given to `--vast`).
struct VMAPOptions: ParsableArguments {
    @Option(help: ArgumentHelp("VMAP (and run --tracking-doc): how long the simulated content (or stream) lasts, in seconds (default: the VMAP document's latest clock offset plus 30 s, else 300 s; a tracking document's last avail plus 30 s).", valueName: "seconds"),
            transform: OptionValue.seconds(positive: true, else: "--content-duration must be a number of seconds above 0"))
    var contentDuration: Duration?

    @Option(help: ArgumentHelp("VMAP: ask for a break's ads this many seconds before its time (default 8: Google IMA's preload lead for mid- and post-rolls).", valueName: "seconds"),
            transform: OptionValue.seconds(else: "--break-prefetch must be a number of seconds, 0 or more"))
    var breakPrefetch: Duration?

    @Option(help: ArgumentHelp("VMAP (and run --tracking-doc): what happens to the content, at content seconds: seek@30=120, background@60=10 (for 10 s), contentComplete@95 or contentComplete@never (the post-roll is requested and never plays).", valueName: "steps"),
            transform: Self.script)
    var contentScript: ContentScript?

    @Sendable static func script(_ text: String) throws -> ContentScript {
        do { return try ContentScript(parsing: text) } catch { throw ValidationError(error.description) }
    }

    /// The content's settings.
    var playback: VMAPPlayback {
        VMAPPlayback(contentDuration: contentDuration, breakPrefetch: breakPrefetch ?? VMAPPlayback.defaultBreakPrefetch,
                     contentScript: contentScript ?? ContentScript())
    }
}
