/// Why a MediaFile was not the one played, as the report renders it beside the file (`RejectedMediaFile.reason`).
public enum MediaFileRejection: Sendable, Hashable {
    /// Not a candidate at all.
    case unplayable(UnplayableMedia)
    /// Playable, but of the kind set aside while the other kind had candidates: a streaming manifest while progressive
    /// files were left (or the reverse under `--prefer-streaming`, `preferStreaming` true).
    case otherKindPreferred(preferStreaming: Bool)
    /// Playable, and ranked after the file played.
    case notChosen
    /// Tried before the file played, and could not be opened (a player's fallback to the next file).
    case couldNotOpen(code: VASTErrorCode, message: String)

    /// The text for `file`, the file rejected.
    func text(for file: MediaFile) -> String {
        switch self {
        case let .unplayable(why): why.description
        case .otherKindPreferred(preferStreaming: true): "playable; an HLS or DASH manifest is preferred (--prefer-streaming)"
        case .otherKindPreferred(preferStreaming: false):
            "playable; a progressive file is preferred (HLS and DASH are the fallback; --prefer-streaming)"
        case .notChosen: "playable; not chosen (\(MediaFileSelector.describe(file)))"
        case let .couldNotOpen(code, message): "could not be played (VAST \(code): \(message))"
        }
    }
}
