import Foundation
import PlayerEngine
import VAST

/// Where FFmpeg opens a MediaFile URL from. Relative URLs resolve against the InLine's tag URL; `--map` rules apply
/// to media as to tags (offline replay of a recorded tag and its media). A local file is opened only when the InLine
/// itself came from a local file the user named or mapped: remote content never makes vplay read a local file.
struct MediaLocator {
    let mappings: [URLMapping]

    func locate(_ mediaURL: String, inLineTagURL: String) -> Result<String, MediaError> {
        let trimmed = mediaURL.trimmingCharacters(in: .whitespacesAndNewlines)
        let base = URL(string: inLineTagURL)
        guard let url = URL(string: trimmed, relativeTo: base)?.absoluteURL, let scheme = url.scheme?.lowercased() else {
            return .failure(.notFound(location: mediaURL, message: "not a valid URL"))
        }
        if scheme == "http" || scheme == "https" {
            for mapping in mappings {
                if let local = mapping.localFile(for: url) { return .success(local.path) }
            }
            return .success(url.absoluteString)
        }
        if scheme == "file" {
            guard base?.isFileURL == true else {
                return .failure(.schemeNotAllowed(location: mediaURL))
            }
            return .success(url.path)
        }
        return .failure(.schemeNotAllowed(location: mediaURL))
    }
}
