import PlayerEngine
import VAST

/// Opens the media file of a Linear the way a player does: the best file by the selection rules that opens. When it
/// cannot be opened (not found, not media, truncated before its first frame), the next best is tried, as players
/// fall back within an ad's MediaFiles; only when none opens does the ad fail, with the first (the preferred file's)
/// error. A file the user forced (`--media-file`) is the only one tried.
struct MediaOpener {
    let mappings: [URLMapping]
    let decoderThreads: Int
    let media: any MediaOpening

    struct Opened {
        var selection: MediaSelection
        /// Where FFmpeg opened it (a local path under `--map`, else the URL).
        var location: String
        var source: any MediaSource
    }

    /// The file opened, or the error to report; `skipped` says why each better file was passed over, in order.
    func open(_ files: [MediaFile], criteria: MediaSelectionCriteria, inLineTagURL: String) -> (Result<Opened, SessionError>, skipped: [String]) {
        var candidates = files
        var firstFailure: SessionError?
        var skipped: [String] = []
        while true {
            var selection: MediaSelection
            do {
                selection = try MediaFileSelector.select(from: candidates, criteria: criteria)
                // Positions count in the tag's list, not among the files left after a fallback.
                if let position = files.firstIndex(of: selection.file).map({ $0 + 1 }), position != selection.index {
                    selection.reason = selection.reason.replacingOccurrences(of: "→ #\(selection.index)", with: "→ #\(position)")
                    selection.index = position
                }
            } catch {
                return (.failure(firstFailure ?? SessionError(kind: .media, code: error.code, message: error.message)), skipped)
            }
            let attempt: Result<(String, any MediaSource), MediaError>
            switch MediaLocator(mappings: mappings).locate(selection.file.url, inLineTagURL: inLineTagURL) {
            case let .success(location):
                do {
                    attempt = .success((location, try media.open(location, options: MediaOpenOptions(decoderThreads: decoderThreads))))
                } catch {
                    attempt = .failure(error)
                }
            case let .failure(error):
                attempt = .failure(error)
            }
            switch attempt {
            case let .success((location, source)):
                return (.success(Opened(selection: selection, location: location, source: source)), skipped)
            case let .failure(error):
                let failure = SessionError(kind: .media, code: error.vastCode, message: error.description)
                firstFailure = firstFailure ?? failure
                candidates.removeAll { $0 == selection.file }
                if criteria.forcedFile != nil || candidates.isEmpty { return (.failure(firstFailure!), skipped) }
                skipped.append("media file \(selection.file.url) cannot be played (VAST \(error.vastCode): \(error.description)); trying the next one")
            }
        }
    }
}
