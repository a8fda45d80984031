import Findings

/// What a VMAP session finds in the document, its schedule and its breaks (VMAP 1.0.1), and where common players
/// would play the same document differently.
public extension Rule {
    static let vmapNamespace = Rule("VPLAY-vmap-namespace", .info, spec: "VMAP 1.0.1 §2.1 (namespace)",
                                    "the namespace the document's elements are in: real documents use three, vplay reads all by local name")
    static let vmapDocumentProblem = Rule("VPLAY-vmap-document", .warning, spec: "VMAP 1.0.1 §2.3 (AdBreak), §2.5 (error codes)",
                                          "part of the document is not as VMAP writes it: a break left out, or a default assumed")
    static let vmapSchedule = Rule("VPLAY-vmap-schedule", .info, spec: "VMAP 1.0.1 §2.4 (timeOffset, repeatAfter)",
                                   "how the breaks fall on the content: breaks sharing an offset, repeats giving way, offsets never reached")
    static let vmapContentDuration = Rule("VPLAY-vmap-content-duration", .info, spec: "VMAP 1.0.1 §2.4 (timeOffset n%, end)",
                                          "the simulated content's duration was assumed (--content-duration sets it)")
    static let vmapBreakNotPlayed = Rule("VPLAY-vmap-break-not-played", .warning, spec: "VMAP 1.0.1 §2.3.1 (breakType), §2.5 (1003, 1005)",
                                         "a break this linear player does not play (nonlinear or display, CustomAdData, another template type): its error tracking is told why")
    static let vmapBreakFailed = Rule("VPLAY-vmap-break-failed", .warning, spec: "VMAP 1.0.1 §2.5 (error codes)",
                                      "a break's ads could not be had or none of them played")
    static let vmapPostrollWithheld = Rule("VPLAY-vmap-postroll-withheld", .warning, spec: "VMAP 1.0.1 §2.4 (timeOffset end); IMA contentComplete",
                                           "a post-roll was requested and never played: contentComplete was never signalled")
    static let vmapPlayerIMA = Rule("VPLAY-vmap-player-ima", .info, spec: "Google IMA SDK ad rules (VMAP); videojs-ima#928",
                                    "Google IMA would play this document differently (it ignores percentage offsets)")
    static let vmapPlayerShaka = Rule("VPLAY-vmap-player-shaka", .info, spec: "Shaka Player VMAP support (lib/ads); shaka-player#9427",
                                      "Shaka Player would play this document differently (start, end and clock offsets only, AdTagURI only, no break tracking)")
    static let vmapOptionIgnored = Rule("VPLAY-vmap-option-ignored", .warning, spec: "vplay (--display-deadline, load+N script steps)",
                                        "an option that times a VAST tag's loading does not apply to the VMAP document --vast turned out to be")

    /// Every VMAP rule, in the order `vplay rules` lists them.
    static let vmapRules: [Rule] = [
        .vmapNamespace, .vmapDocumentProblem, .vmapSchedule, .vmapContentDuration, .vmapBreakNotPlayed, .vmapBreakFailed,
        .vmapPostrollWithheld, .vmapPlayerIMA, .vmapPlayerShaka, .vmapOptionIgnored,
    ]
}
