import BeaconSink
import TrackingBeacons

/// Fired against received: every beacon attempt sent to the embedded sink matched to one hit with the same request
/// target, each hit used once. What is left on either side is listed.
public struct Reconciliation: Sendable, Equatable {
    /// A beacon attempt for the sink that no hit matches, or one never sent.
    public struct Missing: Sendable, Equatable {
        /// The event the beacon fired for (`impression`, `start`, …).
        public var event: String
        /// Where its URL came from in the wrapper chain (`inline`, `wrapper 1 (AdSystem)`, …).
        public var source: String
        /// The URL as sent, macros expanded.
        public var url: String
        /// Why the attempt failed, in words; nil when it got an answer the sink did not record.
        public var error: String?
    }

    /// Attempts sent to the sink (beacons the session ended before sending are not counted: see `notSent`).
    public var sent: Int
    /// Hits the sink recorded.
    public var received: Int
    /// Attempts matched to a hit with the same request target.
    public var matched: Int
    /// Attempts with no hit (refused, lost on the way, or not reached before the end).
    public var missing: [Missing]
    /// Hits no attempt accounts for, by request target.
    public var unexpected: [String]
    /// Beacons for the sink that never went out: the session ended while they waited for a concurrency slot or a
    /// retry (`BeaconFailure.notSentBeforeSessionEnd`). Not sent, so neither matched nor missing; they count as failed
    /// beacons in the summary.
    public var notSent: [Missing] = []

    /// Server-side mode: every hit checked for the device's `X-Device-*` fields (and `X-Forwarded-For` when asked).
    public struct DeviceCheck: Sendable, Equatable {
        /// What each hit should say.
        public var expected: SinkHit.DeviceHeaders
        /// Hits checked.
        public var checked: Int
        /// Hits that said something else or nothing, by target.
        public var wrong: [String]
    }

    /// Server-side mode's header check; nil for a client-side session.
    public var device: DeviceCheck?

    /// True when every attempt sent was received, the sink recorded nothing else, and (server-side) every hit
    /// carried the device's fields.
    public var isComplete: Bool { missing.isEmpty && unexpected.isEmpty && (device?.wrong.isEmpty ?? true) }

    /// Matches `records` that were sent to a URL `routing` sends to the sink against the sink's `hits` by request
    /// target, each hit used once.
    /// - Parameter device: server-side mode: what every hit's `X-Device-*` fields must say.
    public init(records: [BeaconRecord], hits: [SinkHit], routing: SinkRouting, device: SinkHit.DeviceHeaders? = nil) {
        var pool: [String: Int] = [:]
        for hit in hits { pool[hit.target, default: 0] += 1 }
        let routed = records.filter { $0.wasSent && routing.routes($0.url) }
        notSent = records.filter { !$0.dryRun && !$0.wasSent && routing.routes($0.url) }
            .map { Missing(event: $0.event, source: $0.source, url: $0.url, error: $0.error) }
        var missing: [Missing] = []
        var matched = 0
        for record in routed {
            let target = SinkRouting.target(of: record.url) ?? record.url
            if let count = pool[target], count > 0 {
                pool[target] = count - 1
                matched += 1
            } else {
                missing.append(Missing(event: record.event, source: record.source, url: record.url, error: record.error))
            }
        }
        sent = routed.count
        received = hits.count
        self.matched = matched
        self.missing = missing
        unexpected = pool.filter { $0.value > 0 }.flatMap { Array(repeating: $0.key, count: $0.value) }.sorted()
        if let device {
            self.device = DeviceCheck(expected: device, checked: hits.count, wrong: hits.filter { $0.device != device }.map(\.target))
        }
    }
}
