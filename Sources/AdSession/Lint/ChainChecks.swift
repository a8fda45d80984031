import Findings
import Foundation
import Primitives
import VAST

/// The wrapper chain's depth and time, as `lint` measured them resolving it (`VPLAY-wrapper-depth`,
/// `VPLAY-resolution-time`).
enum ChainChecks {
    /// IMA iOS's `maxRedirects`: the wrappers it follows before failing with 302.
    static let maxWrappers = 4
    /// IMA HTML5's and Android's `vastLoadTimeout`: each request's deadline.
    static let requestLimit = Duration.seconds(5)
    /// IMA iOS's budget: 8 s for the first request, 4 s for each later one.
    static let firstBudget = Duration.seconds(8), laterBudget = Duration.seconds(4)

    static func findings(_ hops: [ResolutionHop]) -> [Finding] {
        var findings: [Finding] = []
        let wrappers = hops.map(\.depth).max() ?? 0
        if wrappers > maxWrappers {
            findings.append(Finding(.wrapperDepth, "the chain has \(wrappers) wrappers before its InLine; IMA follows \(maxWrappers) (then 302), VAST asks five at most"))
        }
        // A request that failed (a timeout among them) is already an error of its own code.
        let answered = hops.filter { if case .failed = $0.outcome { false } else if case .refused = $0.outcome { false } else { true } }
        for hop in answered where hop.elapsed > requestLimit {
            findings.append(Finding(.resolutionTime, "hop \(hop.depth) (\(hop.url)) took \(seconds(hop.elapsed)) s; IMA on the web and Android gives a request 5 s"))
        }
        let total = hops.reduce(Duration.zero) { $0 + $1.elapsed }
        let budget = firstBudget + laterBudget * wrappers
        if total > budget, answered.count == hops.count {
            findings.append(Finding(.resolutionTime, "resolving took \(seconds(total)) s in all; IMA iOS allows \(seconds(budget)) s for \(wrappers + 1) request\(wrappers == 0 ? "" : "s")"))
        }
        return findings
    }

    static func seconds(_ duration: Duration) -> String { String(format: "%.1f", duration.seconds) }
}
