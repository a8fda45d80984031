/// One wrapper of a resolved chain.
public struct WrapperLink: Sendable, Hashable, Encodable {
    /// 1 for the outermost wrapper, counting inward.
    public var depth: Int
    /// The wrapper's `<Ad>` (id, sequence…).
    public var ad: Ad
    /// The wrapper itself.
    public var wrapper: Wrapper
    /// The URL of the response that contained this wrapper (`nil` when the outermost response was given as data).
    public var tagURL: String?

    public init(depth: Int, ad: Ad, wrapper: Wrapper, tagURL: String?) {
        self.depth = depth
        self.ad = ad
        self.wrapper = wrapper
        self.tagURL = tagURL
    }

    /// The source tag for everything merged from this wrapper.
    public var source: TrackingSource {
        .wrapper(depth: depth, adSystem: wrapper.adSystem?.name, tagURL: tagURL)
    }
}
