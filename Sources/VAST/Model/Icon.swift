/// `<Icon>` of a Linear (VAST 3.0; also allowed in wrappers), e.g. the AdChoices icon.
public struct Icon: Sendable, Hashable, Encodable {
    /// `program` attribute, e.g. `AdChoices`.
    public var program: String?
    /// `width` in pixels.
    public var width: Int?
    /// `height` in pixels.
    public var height: Int?
    /// `xPosition`: pixels from the left, or `left`/`right`.
    public var xPosition: String?
    /// `yPosition`: pixels from the top, or `top`/`bottom`.
    public var yPosition: String?
    /// `duration`: how long to show it. `nil` means for the rest of the ad.
    public var duration: Duration?
    /// `offset`: when to show it after the first frame.
    public var offset: Duration?
    /// `apiFramework` attribute.
    public var apiFramework: String?
    /// `pxratio` attribute.
    public var pxratio: String?
    /// Static/IFrame/HTML resources.
    public var resources: [CreativeResource]
    /// `<IconClickThrough>`.
    public var clickThrough: String?
    /// `<IconClickTracking>` URLs.
    public var clickTracking: [ClickURL]
    /// `<IconViewTracking>` URLs: fired when the icon is shown.
    public var viewTracking: [String]
    /// `<IconClickFallbackImage>` URLs (VAST 4.2).
    public var clickFallbackImages: [String]

    public init(program: String? = nil, width: Int? = nil, height: Int? = nil, xPosition: String? = nil,
                yPosition: String? = nil, duration: Duration? = nil, offset: Duration? = nil,
                apiFramework: String? = nil, pxratio: String? = nil, resources: [CreativeResource] = [],
                clickThrough: String? = nil, clickTracking: [ClickURL] = [], viewTracking: [String] = [],
                clickFallbackImages: [String] = []) {
        self.program = program
        self.width = width
        self.height = height
        self.xPosition = xPosition
        self.yPosition = yPosition
        self.duration = duration
        self.offset = offset
        self.apiFramework = apiFramework
        self.pxratio = pxratio
        self.resources = resources
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.viewTracking = viewTracking
        self.clickFallbackImages = clickFallbackImages
    }

    private enum CodingKeys: String, CodingKey {
        case program, width, height, xPosition, yPosition, durationMilliseconds, offsetMilliseconds, apiFramework
        case pxratio, resources, clickThrough, clickTracking, viewTracking, clickFallbackImages
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(program, forKey: .program)
        try c.encodeIfPresent(width, forKey: .width)
        try c.encodeIfPresent(height, forKey: .height)
        try c.encodeIfPresent(xPosition, forKey: .xPosition)
        try c.encodeIfPresent(yPosition, forKey: .yPosition)
        try c.encodeMilliseconds(duration, forKey: .durationMilliseconds)
        try c.encodeMilliseconds(offset, forKey: .offsetMilliseconds)
        try c.encodeIfPresent(apiFramework, forKey: .apiFramework)
        try c.encodeIfPresent(pxratio, forKey: .pxratio)
        try c.encode(resources, forKey: .resources)
        try c.encodeIfPresent(clickThrough, forKey: .clickThrough)
        try c.encode(clickTracking, forKey: .clickTracking)
        try c.encode(viewTracking, forKey: .viewTracking)
        try c.encode(clickFallbackImages, forKey: .clickFallbackImages)
    }
}
