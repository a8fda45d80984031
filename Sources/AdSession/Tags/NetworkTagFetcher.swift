import Foundation
import PlayerEngine
import Primitives
import VAST

/// Tag requests under a simulated network (`--network`): each response is fetched as usual, then timed by the
/// profile (two round trips, then its bytes at the rate from the start of the profile), and a response that would
/// not have arrived within the time its hop had left fails with 301, as the resolver's own timeout does. The
/// decision is computed, never slept, so a slow network trips the 8 s / 4 s wrapper timeouts deterministically.
struct NetworkTagFetcher: AdTagFetcher {
    let next: any AdTagFetcher
    let profile: NetworkProfile

    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        let tag = try await next.fetch(url, timeout: timeout)
        let bytes = Int64(tag.data.count)
        let arrival = profile.arrival(ofBytes: bytes)
        guard let arrival, arrival <= timeout else {
            let when = arrival.map { "would take \($0.millisecondText) s" } ?? "never arrives"
            throw VASTError(.wrapperTimeout, "\(url.absoluteString): on network \(profile) its \(bytes) bytes \(when), more than the \(timeout.millisecondText) s it had")
        }
        return tag
    }
}
