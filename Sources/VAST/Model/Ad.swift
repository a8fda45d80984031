/// One `<Ad>`: either an InLine (the ad itself) or a Wrapper (a pointer to another VAST response).
public struct Ad: Sendable, Hashable, Encodable {
    /// `id` attribute.
    public var id: String?
    /// `sequence` attribute: the ad's position in a pod (1-based). `nil` for a stand-alone (buffet) ad.
    public var sequence: Int?
    /// `conditionalAd` attribute (VAST 4.0; deprecated in 4.1). `nil` when absent.
    public var conditionalAd: Bool?
    /// `adType` attribute (VAST 4.1: `video`, `audio`, `hybrid`). `nil` when absent (means video).
    public var adType: String?
    /// The InLine or Wrapper content.
    public var content: AdContent

    public init(id: String?, sequence: Int?, conditionalAd: Bool?, adType: String?, content: AdContent) {
        self.id = id
        self.sequence = sequence
        self.conditionalAd = conditionalAd
        self.adType = adType
        self.content = content
    }

    /// The InLine, when this ad is one.
    public var inLine: InLine? {
        if case .inLine(let inLine) = content { return inLine }
        return nil
    }

    /// The Wrapper, when this ad is one.
    public var wrapper: Wrapper? {
        if case .wrapper(let wrapper) = content { return wrapper }
        return nil
    }

    /// `<AdSystem>` of either kind.
    public var adSystem: AdSystem? {
        switch content {
        case .inLine(let v): return v.adSystem
        case .wrapper(let v): return v.adSystem
        }
    }

    /// `<Error>` URLs of either kind.
    public var errorURLs: [String] {
        switch content {
        case .inLine(let v): return v.errorURLs
        case .wrapper(let v): return v.errorURLs
        }
    }
}
