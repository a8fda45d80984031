/// One `<NonLinear>` overlay.
public struct NonLinear: Sendable, Hashable, Encodable {
    /// `id` attribute.
    public var id: String?
    /// `width` in pixels.
    public var width: Int?
    /// `height` in pixels.
    public var height: Int?
    /// `minSuggestedDuration` attribute.
    public var minSuggestedDuration: Duration?
    /// `apiFramework` attribute.
    public var apiFramework: String?
    /// Static/IFrame/HTML resources.
    public var resources: [CreativeResource]
    /// `<NonLinearClickThrough>`.
    public var clickThrough: String?
    /// `<NonLinearClickTracking>` URLs.
    public var clickTracking: [ClickURL]

    public init(id: String? = nil, width: Int? = nil, height: Int? = nil, minSuggestedDuration: Duration? = nil,
                apiFramework: String? = nil, resources: [CreativeResource] = [], clickThrough: String? = nil,
                clickTracking: [ClickURL] = []) {
        self.id = id
        self.width = width
        self.height = height
        self.minSuggestedDuration = minSuggestedDuration
        self.apiFramework = apiFramework
        self.resources = resources
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
    }

    private enum CodingKeys: String, CodingKey {
        case id, width, height, minSuggestedDurationMilliseconds, apiFramework, resources, clickThrough, clickTracking
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encodeIfPresent(width, forKey: .width)
        try c.encodeIfPresent(height, forKey: .height)
        try c.encodeMilliseconds(minSuggestedDuration, forKey: .minSuggestedDurationMilliseconds)
        try c.encodeIfPresent(apiFramework, forKey: .apiFramework)
        try c.encode(resources, forKey: .resources)
        try c.encodeIfPresent(clickThrough, forKey: .clickThrough)
        try c.encode(clickTracking, forKey: .clickTracking)
    }
}
