/// Why a MediaFile is not a candidate at all: vplay cannot play it, whatever the rules.
public enum UnplayableMedia: Sendable, Hashable, CustomStringConvertible {
    /// A VPAID `apiFramework`: interactive JavaScript, which vplay does not run.
    case interactive(apiFramework: String)
    /// A URL with nothing to request once its macros are left out.
    case emptyURL
    /// No `type` attribute (and a URL that does not name a streaming manifest).
    case noType
    /// A `type` that is not one FFmpeg plays here (its normalized form: lower case, parameters dropped).
    case unsupportedType(String)

    public var description: String {
        switch self {
        case let .interactive(api): "\(api) apiFramework (interactive JavaScript, not played)"
        case .emptyURL: "empty URL"
        case .noType: "no type attribute"
        case let .unsupportedType(type):
            "type \(type) is not one of \((MediaFileSelector.playableTypes + MediaFileSelector.hlsTypes.prefix(2) + [MediaFileSelector.dashType]).joined(separator: ", "))"
        }
    }
}
