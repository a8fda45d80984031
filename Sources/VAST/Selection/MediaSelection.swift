/// The file played (or, when none opened, the best one), as the report renders it: why it was chosen and why every
/// other file was not. Built by `MediaRanking.selection(at:failures:playedAs:)`.
public struct MediaSelection: Sendable, Hashable {
    /// The chosen file.
    public var file: MediaFile
    /// Its 1-based position among the Linear's MediaFiles.
    public var index: Int
    /// Why it was chosen.
    public var why: MediaChoiceReason
    /// How the opened file played, when that adds to why (streaming media, a file mislabelled streaming).
    public var playedAs: PlayedAs?
    /// Every other MediaFile with why it was not played, in document order.
    public var rejected: [RejectedMediaFile]

    /// Why, for humans (`vplay inspect`, the session record).
    public var reason: String { why.text(file: file, index: index) + (playedAs?.text ?? "") }

    /// What opening the file showed about how it plays.
    public enum PlayedAs: Sendable, Hashable {
        /// An HLS master playlist's variant, or a DASH manifest's representation, with why it was chosen.
        case variant(dash: Bool, String)
        /// An HLS media playlist (or a DASH manifest without a choice to make).
        case mediaPlaylist(dash: Bool)
        /// A file labelled `delivery="streaming"` that is a progressive file, of this FFmpeg format.
        case progressive(format: String)

        var text: String {
            switch self {
            case let .variant(dash, why): "; \(dash ? "DASH" : "HLS") \(why)"
            case let .mediaPlaylist(dash): "; \(dash ? "DASH" : "HLS") media playlist"
            case let .progressive(format): "; labelled delivery=\"streaming\", played as the progressive file it is (\(format))"
            }
        }
    }
}
