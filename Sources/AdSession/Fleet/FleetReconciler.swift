import BeaconSink
import Primitives

/// Matches the embedded sink's hits to the fleet's requests as both arrive, and keeps only what is not matched yet:
/// memory bounded by the requests in flight, not by the beacons sent (kept until the end, a fleet of a million
/// sessions needed about 10 GB to reconcile; issue 43).
///
/// A request and its hit meet whichever comes first: the sink sees the request before the fleet records the answer
/// (its record), so usually the hit waits, under its request target, for the record that names its tracking URL's
/// row; a hit whose target has requests waiting takes the lowest such row. What is left at the end: hits no request
/// accounts for (`unexpected`) and requests the sink never saw (their row's `received` is short).
///
/// Kept in stripes chosen by the target's hash, each behind its own lock, so the sink's event loops and the fleet's
/// dispatchers rarely meet on one.
final class FleetReconciler: Sendable {
    private struct Stripe: Sendable {
        /// Requests not seen at the sink yet: request target → row → how many.
        var requests: [String: [Int: Int]] = [:]
        /// Hits no request accounts for yet: request target → how many.
        var hits: [String: Int] = [:]
        /// Hits matched to a request, by row.
        var received: [Int: Int] = [:]
        /// Hits the device check refused.
        var deviceMismatches = 0
        var hitsSeen = 0
    }

    private static let stripeCount = 16
    private let stripes: [Locked<Stripe>]
    /// Server-side mode: whether a hit carried the device's fields as the stitcher sends them.
    private let checkDevice: (@Sendable (SinkHit) -> Bool)?
    /// Each hit matched to a request, with its row (`--results`).
    private let onReceived: (@Sendable (Int) -> Void)?

    /// - Parameters:
    ///   - checkDevice: when the hits must carry the device's `X-Device-*` fields, whether a hit does.
    ///   - onReceived: told each match's row, under the stripe's lock (it must only queue it).
    init(checkDevice: (@Sendable (SinkHit) -> Bool)? = nil, onReceived: (@Sendable (Int) -> Void)? = nil) {
        stripes = (0..<Self.stripeCount).map { _ in Locked(Stripe()) }
        self.checkDevice = checkDevice
        self.onReceived = onReceived
    }

    private func stripe(of target: String) -> Locked<Stripe> {
        stripes[Int(UInt(bitPattern: target.hashValue) % UInt(Self.stripeCount))]
    }

    /// A request went on the wire to the sink at `target`, for the tracking URL of `row`.
    func sent(target: String, row: Int) {
        stripe(of: target).withLock { stripe in
            if let waiting = stripe.hits[target] {
                stripe.hits[target] = waiting == 1 ? nil : waiting - 1
                stripe.received[row, default: 0] += 1
                onReceived?(row)
            } else {
                stripe.requests[target, default: [:]][row, default: 0] += 1
            }
        }
    }

    /// The sink recorded `hit` (its `SinkConfiguration.onHit`).
    func hit(_ hit: SinkHit) {
        let refused = checkDevice.map { !$0(hit) } ?? false
        let target = hit.target
        stripe(of: target).withLock { stripe in
            stripe.hitsSeen += 1
            if refused { stripe.deviceMismatches += 1 }
            guard var rows = stripe.requests[target], let (row, count) = rows.min(by: { $0.key < $1.key }) else {
                stripe.hits[target, default: 0] += 1
                return
            }
            rows[row] = count == 1 ? nil : count - 1
            stripe.requests[target] = rows.isEmpty ? nil : rows
            stripe.received[row, default: 0] += 1
            onReceived?(row)
        }
    }

    /// What arrived so far: per row of `rows` how many hits matched its requests, and how many hits nothing accounts
    /// for (yet: read once the fleet's beacons are answered, the final count).
    func received(rows: Int) -> (perKey: [Int], unexpected: Int) {
        var perKey = Array(repeating: 0, count: rows), unexpected = 0
        for stripe in stripes {
            stripe.withLock { stripe in
                for (row, count) in stripe.received where row < rows { perKey[row] += count }
                unexpected += stripe.hits.values.reduce(0, +)
            }
        }
        return (perKey, unexpected)
    }

    /// Hits seen so far, matched or not.
    var hitsSeen: Int {
        stripes.reduce(0) { sum, stripe in sum + stripe.withLock { $0.hitsSeen } }
    }

    /// Server-side mode: whether every hit so far carried the device's fields; nil without a device check.
    var deviceFields: Bool? {
        guard checkDevice != nil else { return nil }
        return stripes.allSatisfy { $0.withLock { $0.deviceMismatches == 0 } }
    }

    /// How many requests and hits wait for their other half now (what the reconciler holds in memory).
    var unmatched: (requests: Int, hits: Int) {
        stripes.reduce((requests: 0, hits: 0)) { sum, stripe in
            let held = stripe.withLock { stripe in
                (stripe.requests.values.reduce(0) { $0 + $1.values.reduce(0, +) }, stripe.hits.values.reduce(0, +))
            }
            return (sum.requests + held.0, sum.hits + held.1)
        }
    }
}
