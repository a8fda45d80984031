/// `<VideoClicks>` of a Linear.
public struct VideoClicks: Sendable, Hashable, Codable {
    /// `<ClickThrough>`: the page to open on click (at most one).
    public var clickThrough: ClickURL?
    /// `<ClickTracking>` URLs: fired on click.
    public var clickTracking: [ClickURL]
    /// `<CustomClick>` URLs: for other clickable elements (not fired by a plain click).
    public var customClicks: [ClickURL]

    public init(clickThrough: ClickURL? = nil, clickTracking: [ClickURL] = [], customClicks: [ClickURL] = []) {
        self.clickThrough = clickThrough
        self.clickTracking = clickTracking
        self.customClicks = customClicks
    }
}
