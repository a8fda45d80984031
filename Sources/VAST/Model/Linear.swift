/// `<Linear>`: a video (or audio) creative that plays before, between or after content.
public struct Linear: Sendable, Hashable, Encodable {
    /// `<Duration>` (required for InLine; absent in wrappers). Exact, millisecond precision.
    public var duration: Duration?
    /// `skipoffset` attribute. `nil` means not skippable.
    public var skipOffset: TimeOffset?
    /// `<TrackingEvents>`, in document order (including `progress` with its offset).
    public var tracking: [TrackingEvent]
    /// `<VideoClicks>`.
    public var videoClicks: VideoClicks
    /// `<MediaFiles><MediaFile>` elements, in document order.
    public var mediaFiles: [MediaFile]
    /// `<Mezzanine>` elements (VAST 4.0; for SSAI transcoding, never played).
    public var mezzanines: [Mezzanine]
    /// `<InteractiveCreativeFile>` elements (VAST 4.0).
    public var interactiveCreativeFiles: [InteractiveCreativeFile]
    /// `<ClosedCaptionFiles>` (VAST 4.1).
    public var closedCaptionFiles: [ClosedCaptionFile]
    /// `<Icons>` (VAST 3.0).
    public var icons: [Icon]
    /// `<AdParameters>` text, verbatim (trimmed).
    public var adParameters: String?

    public init(duration: Duration? = nil, skipOffset: TimeOffset? = nil, tracking: [TrackingEvent] = [],
                videoClicks: VideoClicks = VideoClicks(), mediaFiles: [MediaFile] = [], mezzanines: [Mezzanine] = [],
                interactiveCreativeFiles: [InteractiveCreativeFile] = [], closedCaptionFiles: [ClosedCaptionFile] = [],
                icons: [Icon] = [], adParameters: String? = nil) {
        self.duration = duration
        self.skipOffset = skipOffset
        self.tracking = tracking
        self.videoClicks = videoClicks
        self.mediaFiles = mediaFiles
        self.mezzanines = mezzanines
        self.interactiveCreativeFiles = interactiveCreativeFiles
        self.closedCaptionFiles = closedCaptionFiles
        self.icons = icons
        self.adParameters = adParameters
    }

    /// The skip offset as a time within this ad, when both the offset and the duration are known (or the offset is
    /// a time). `nil` means not skippable.
    public var skipTime: Duration? {
        guard let skipOffset else { return nil }
        if case .time(let t) = skipOffset { return t }
        guard let duration else { return nil }
        return skipOffset.resolve(against: duration)
    }

    /// Tracking URLs of one event, in document order.
    public func tracking(for event: TrackingEventName) -> [TrackingEvent] {
        tracking.filter { $0.event == event }
    }

    private enum CodingKeys: String, CodingKey {
        case durationMilliseconds, skipOffset, tracking, videoClicks, mediaFiles, mezzanines
        case interactiveCreativeFiles, closedCaptionFiles, icons, adParameters
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeMilliseconds(duration, forKey: .durationMilliseconds)
        try c.encodeIfPresent(skipOffset, forKey: .skipOffset)
        try c.encode(tracking, forKey: .tracking)
        try c.encode(videoClicks, forKey: .videoClicks)
        try c.encode(mediaFiles, forKey: .mediaFiles)
        try c.encode(mezzanines, forKey: .mezzanines)
        try c.encode(interactiveCreativeFiles, forKey: .interactiveCreativeFiles)
        try c.encode(closedCaptionFiles, forKey: .closedCaptionFiles)
        try c.encode(icons, forKey: .icons)
        try c.encodeIfPresent(adParameters, forKey: .adParameters)
    }
}
