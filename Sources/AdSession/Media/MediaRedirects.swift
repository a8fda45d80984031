import AsyncHTTPClient
import Dispatch
import Foundation
import NIOCore
import Networking
import PlayerEngine
import Primitives
import TrackingBeacons

/// Follows a media URL's redirects for FFmpeg, which is told to follow none (its HTTP protocol would go wherever a
/// `Location` points: another port, a private address, `file:` refused only by its whitelist). One small request
/// per hop (`Range: bytes=0-0`) through the same `GatedHTTPClient` as tags and beacons, so every target passes the
/// same `URLGate`; FFmpeg then opens where the chain ends. Asked only when FFmpeg's first request was answered with
/// something it did not follow, so media that does not redirect is still requested once.
struct MediaRedirects: Sendable {
    let client: GatedHTTPClient
    let userAgent: String

    /// Blocks the calling thread (a media thread: FFmpeg's open is blocking anyway) until the chain is followed.
    func resolve(_ url: String, timeout: Duration) throws(MediaError) -> String? {
        let result = Locked<Result<String?, MediaError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            let outcome = await follow(url, timeout: timeout)
            result.withLock { $0 = outcome }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    private func follow(_ url: String, timeout: Duration) async -> Result<String?, MediaError> {
        do {
            let answer = try await client.get(url, headers: [("User-Agent", userAgent), ("Range", "bytes=0-0")], timeout: timeout)
            // The body is not read (a server that ignores the Range would send the whole file); dropping it closes
            // the connection.
            _ = answer.response
            return .success(answer.redirects.isEmpty ? nil : answer.url.absoluteString)
        } catch let refusal as GatedHTTPClient.Refusal {
            switch refusal {
            case let .url(why): return .failure(.cannotRequest(location: url, reason: why.description))
            case .redirect(_, .schemeNotAllowed):
                // Redirected to `file:` or another scheme: no media vplay may open (403, as a `file:` MediaFile).
                return .failure(.schemeNotAllowed(location: url))
            case let .redirect(target, why): return .failure(.cannotRequest(location: url, reason: "redirected to \(target): \(why)"))
            case .tooManyRedirects: return .failure(.unreachable(location: url, message: "more than \(GatedHTTPClient.maxRedirects) redirects"))
            case .redirectCycle: return .failure(.unreachable(location: url, message: "redirect cycle"))
            }
        } catch {
            // Not a redirect problem: FFmpeg's own error for the first request stands.
            return .success(nil)
        }
    }
}
