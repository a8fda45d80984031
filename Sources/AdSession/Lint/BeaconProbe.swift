import Findings
import Foundation
import TrackingBeacons

/// `lint --probe-beacons`: each tracking URL of the ad requested once, as the player would at its event (macros
/// filled: the playhead 0, a cache buster, the time), through the session's own beacon transport (its address policy,
/// proxy and redirect checks), and its answer judged: a status that is not 2xx or 3xx, or none; an https URL redirected
/// to plain http; an answer slower than 1 s. Error URLs are not probed: a probe would report an error that did not
/// happen. Each URL is requested once however many events list it.
struct BeaconProbe {
    /// An answer slower than this is a finding.
    static let slow = Duration.seconds(1)
    /// Probes in flight at once.
    static let concurrency = 8

    let transport: any BeaconTransport
    let now: Date
    /// Seeds the `[CACHEBUSTING]` values (`--seed`), as a session's.
    var seed: UInt64 = 1
    /// How long a probe waits for its answer: the session's beacon timeout (`BeaconPolicy.timeout`, 5 s).
    var timeout = Duration.seconds(5)

    /// The findings of probing `tracking`'s URLs, in the order the URLs first appear.
    func findings(_ tracking: [AdInspection.Tracking]) async -> [Finding] {
        var seen = Set<String>()
        let templates = tracking.filter { $0.event != "error" && seen.insert($0.url).inserted }
        var busters = CacheBuster(seed: seed)
        let urls = templates.map { template in
            let context = MacroContext(adPlayhead: .zero, timestampMilliseconds: Int64((now.timeIntervalSince1970 * 1000).rounded()),
                                       cacheBuster: busters.next())
            return MacroExpander().expand(template.url, context: context).url
        }
        let outcomes = await withTaskGroup(of: (Int, TransportOutcome?).self) { group in
            var results = [TransportOutcome?](repeating: nil, count: urls.count)
            var next = 0
            func add() {
                let index = next, url = urls[index]
                next += 1
                group.addTask { [timeout] in
                    guard url.hasPrefix("http://") || url.hasPrefix("https://") else { return (index, nil) }
                    return (index, await transport.send(url, timeout: timeout))
                }
            }
            while next < min(Self.concurrency, urls.count) { add() }
            for await (index, outcome) in group {
                results[index] = outcome
                if next < urls.count { add() }
            }
            return results
        }
        return zip(templates, outcomes).flatMap { template, outcome in outcome.map { Self.findings(template, $0) } ?? [] }
    }

    static func findings(_ tracking: AdInspection.Tracking, _ outcome: TransportOutcome) -> [Finding] {
        let what = "\(tracking.event) \(tracking.url)"
        var findings: [Finding] = []
        if let status = outcome.status, !(200..<400).contains(status) {
            findings.append(Finding(.beaconStatus, "\(what) answered HTTP \(status)"))
        } else if outcome.status == nil {
            findings.append(Finding(.beaconStatus, "\(what) did not answer: \(outcome.error.map { "\($0)" } ?? "no response")"))
        }
        if tracking.url.lowercased().hasPrefix("https://"), let plain = outcome.redirects.first(where: { $0.lowercased().hasPrefix("http://") }) {
            findings.append(Finding(.beaconRedirectHTTP, "\(what) redirects to plain http: \(plain)"))
        }
        if outcome.status != nil, outcome.latency > slow {
            findings.append(Finding(.beaconSlow, "\(what) took \(ChainChecks.seconds(outcome.latency)) s to answer"))
        }
        return findings
    }
}
