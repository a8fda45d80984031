/// A VAST tracking event name (`event` attribute). Any string is representable; `isKnown` says whether it is one of
/// the names the VAST 2.0–4.3 schemas define.
public struct TrackingEventName: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }

    public static let creativeView: Self = "creativeView"
    public static let loaded: Self = "loaded"
    public static let start: Self = "start"
    public static let firstQuartile: Self = "firstQuartile"
    public static let midpoint: Self = "midpoint"
    public static let thirdQuartile: Self = "thirdQuartile"
    public static let complete: Self = "complete"
    public static let progress: Self = "progress"
    public static let mute: Self = "mute"
    public static let unmute: Self = "unmute"
    public static let pause: Self = "pause"
    public static let resume: Self = "resume"
    public static let rewind: Self = "rewind"
    public static let skip: Self = "skip"
    public static let playerExpand: Self = "playerExpand"
    public static let playerCollapse: Self = "playerCollapse"
    public static let fullscreen: Self = "fullscreen"
    public static let exitFullscreen: Self = "exitFullscreen"
    public static let expand: Self = "expand"
    public static let collapse: Self = "collapse"
    public static let closeLinear: Self = "closeLinear"
    public static let close: Self = "close"
    public static let notUsed: Self = "notUsed"
    public static let otherAdInteraction: Self = "otherAdInteraction"
    public static let acceptInvitation: Self = "acceptInvitation"
    public static let acceptInvitationLinear: Self = "acceptInvitationLinear"
    public static let adExpand: Self = "adExpand"
    public static let adCollapse: Self = "adCollapse"
    public static let minimize: Self = "minimize"
    public static let overlayViewDuration: Self = "overlayViewDuration"
    public static let timeSpentViewing: Self = "timeSpentViewing"
    public static let interactiveStart: Self = "interactiveStart"
    public static let verificationNotExecuted: Self = "verificationNotExecuted"

    /// Every event name defined by VAST 2.0, 3.0, 4.0, 4.1, 4.2 or 4.3 (the union, including names later removed
    /// such as `fullscreen` or `acceptInvitationLinear`, because old tags still carry them).
    public static let known: Set<TrackingEventName> = [
        .creativeView, .loaded, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete, .progress, .mute,
        .unmute, .pause, .resume, .rewind, .skip, .playerExpand, .playerCollapse, .fullscreen, .exitFullscreen,
        .expand, .collapse, .closeLinear, .close, .notUsed, .otherAdInteraction, .acceptInvitation,
        .acceptInvitationLinear, .adExpand, .adCollapse, .minimize, .overlayViewDuration, .timeSpentViewing,
        .interactiveStart, .verificationNotExecuted,
    ]

    /// Whether this is a name some VAST version defines (case-sensitive, like the schema: `first-quartile` is not).
    public var isKnown: Bool { Self.known.contains(self) }
}
