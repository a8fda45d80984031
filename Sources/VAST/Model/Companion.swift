/// `<Companion>`: one companion banner or end card.
public struct Companion: Sendable, Hashable, Encodable {
    /// `id` attribute.
    public var id: String?
    /// `width` in pixels (required by the spec).
    public var width: Int?
    /// `height` in pixels (required by the spec).
    public var height: Int?
    /// `assetWidth` in pixels.
    public var assetWidth: Int?
    /// `assetHeight` in pixels.
    public var assetHeight: Int?
    /// `expandedWidth` in pixels.
    public var expandedWidth: Int?
    /// `expandedHeight` in pixels.
    public var expandedHeight: Int?
    /// `apiFramework` attribute.
    public var apiFramework: String?
    /// `adSlotId` attribute.
    public var adSlotId: String?
    /// `pxratio` attribute.
    public var pxratio: String?
    /// `renderingMode` (VAST 4.1): `default`, `end-card`, `concurrent`.
    public var renderingMode: String?
    /// Static/IFrame/HTML resources. Empty for a tracking-only wrapper companion.
    public var resources: [CreativeResource]
    /// `<CompanionClickThrough>`.
    public var clickThrough: String?
    /// `<CompanionClickTracking>` URLs.
    public var clickTracking: [ClickURL]
    /// `<TrackingEvents>`; `creativeView` is the only companion event.
    public var tracking: [TrackingEvent]
    /// `<AltText>`.
    public var altText: String?
    /// `<AdParameters>`, verbatim (trimmed).
    public var adParameters: String?

    public init(id: String? = nil, width: Int? = nil, height: Int? = nil, assetWidth: Int? = nil,
                assetHeight: Int? = nil, expandedWidth: Int? = nil, expandedHeight: Int? = nil,
                apiFramework: String? = nil, adSlotId: String? = nil, pxratio: String? = nil,
                renderingMode: String? = nil, resources: [CreativeResource] = [], clickThrough: String? = nil,
                clickTracking: [ClickURL] = [], tracking: [TrackingEvent] = [], altText: String? = nil,
                adParameters: String? = nil) {
        self.id = id
        self.width = width
        self.height = height
        self.assetWidth = assetWidth
        self.assetHeight = assetHeight
        self.expandedWidth = expandedWidth
        self.expandedHeight = expandedHeight
        self.apiFramework = apiFramework
        self.adSlotId = adSlotId
        self.pxratio = pxratio
        self.renderingMode = renderingMode
        self.resources = resources
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.tracking = tracking
        self.altText = altText
        self.adParameters = adParameters
    }
}
