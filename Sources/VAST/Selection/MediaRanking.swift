/// A Linear's MediaFiles in the order a player tries them: chosen once, by `MediaFileSelector.rank`, and walked by
/// the opener until one opens (a player's fallback to the next file). Each candidate is the file the rules choose
/// among those left once the ones before it (and copies of them) are set aside.
public struct MediaRanking: Sendable, Hashable {
    /// The Linear's MediaFiles, in document order.
    public var files: [MediaFile]
    /// The files to try, best first: never empty; one under `--media-file`.
    public var candidates: [MediaCandidate]
    /// The files that are not candidates, by 1-based position, with why.
    public var unplayable: [Int: UnplayableMedia]

    /// The report of playing candidate `rank` (0-based) after the ones before it could not be opened.
    /// - Parameters:
    ///   - failures: the files tried and not opened, by 1-based position (a failed file's copies too), with why.
    ///   - playedAs: what opening the file showed, when it opened.
    public func selection(at rank: Int, failures: [Int: MediaFileRejection] = [:], playedAs: MediaSelection.PlayedAs? = nil) -> MediaSelection {
        let chosen = candidates[rank]
        let rejected = files.enumerated().map { (index: $0.offset + 1, file: $0.element) }.filter { $0.index != chosen.index }.map { entry in
            RejectedMediaFile(index: entry.index, file: entry.file, why: failures[entry.index] ?? unplayable[entry.index].map(MediaFileRejection.unplayable)
                ?? (chosen.preferStreaming.map { MediaFileSelector.isStreaming(entry.file) != $0 } == true
                    ? .otherKindPreferred(preferStreaming: chosen.preferStreaming!) : .notChosen))
        }
        return MediaSelection(file: chosen.file, index: chosen.index, why: chosen.why, playedAs: playedAs, rejected: rejected)
    }
}
