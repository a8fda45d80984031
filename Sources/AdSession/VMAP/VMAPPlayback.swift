/// How a VMAP session runs its content (`--content-duration`, `--break-prefetch`, `--content-script`).
public struct VMAPPlayback: Sendable, Equatable {
    /// How long the simulated content lasts; nil: `VMAPSchedule.defaultContentDuration` (the document's latest clock
    /// offset plus 30 s, else 5 minutes).
    public var contentDuration: Duration?
    /// How long before a break's time its ads are asked for (and their media opened): 8 s by default, what Google
    /// IMA's HTML5 SDK does for the first ad of a mid- or post-roll when preloading (its "Preload media" guide). A
    /// pre-roll is asked for at the start.
    public var breakPrefetch: Duration = Self.defaultBreakPrefetch
    /// Seeks, the app in the background, and when `contentComplete` is signalled.
    public var contentScript = ContentScript()

    public static let defaultBreakPrefetch: Duration = .seconds(8)

    public init(contentDuration: Duration? = nil, breakPrefetch: Duration = Self.defaultBreakPrefetch, contentScript: ContentScript = ContentScript()) {
        self.contentDuration = contentDuration
        self.breakPrefetch = breakPrefetch
        self.contentScript = contentScript
    }
}
