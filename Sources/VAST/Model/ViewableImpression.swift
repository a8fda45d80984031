/// `<ViewableImpression>` (VAST 4.0): publisher-measured viewability outcome URLs.
public struct ViewableImpression: Sendable, Hashable, Codable {
    /// `id` attribute.
    public var id: String?
    /// `<Viewable>` URLs: fire when the viewability criteria are met.
    public var viewable: [String]
    /// `<NotViewable>` URLs: fire when the ad played but never met them.
    public var notViewable: [String]
    /// `<ViewUndetermined>` URLs: fire when viewability cannot be determined (always the case headless).
    public var viewUndetermined: [String]

    public init(id: String? = nil, viewable: [String] = [], notViewable: [String] = [], viewUndetermined: [String] = []) {
        self.id = id
        self.viewable = viewable
        self.notViewable = notViewable
        self.viewUndetermined = viewUndetermined
    }
}
