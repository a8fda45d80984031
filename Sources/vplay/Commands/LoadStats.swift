import AdSession
import Primitives
import ArgumentParser
import Foundation
import TrackingBeacons

actor LoadStats {
    private var latencies: [Double] = []
    private var failed = 0
    private var errors: [String: Int] = [:]

    func add(_ record: BeaconRecord) {
        guard record.isFinalAttempt else { return }
        if record.delivered {
            latencies.append(record.latency.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 } ?? 0)
        } else {
            failed += 1
            errors[record.error ?? "unknown", default: 0] += 1
        }
    }

    struct Summary {
        var delivered: Int, failed: Int, seconds: Double, p50: Double, p99: Double, max: Double, errors: [String: Int]
        var rate: Double { Double(delivered) / Swift.max(seconds, 1e-9) }
        var json: JSON {
            .object([("delivered", .int(delivered)), ("failed", .int(failed)), ("wallTime", .number(seconds)), ("perSecond", .number(rate)),
                     ("p50", .number(p50)), ("p99", .number(p99)), ("max", .number(max)),
                     ("errors", .object(errors.sorted { $0.key < $1.key }.map { ($0.key, .int($0.value)) }))])
        }
        var text: String {
            String(format: "%d delivered, %d failed in %.3f s: %.0f beacons/s; latency p50 %.2f ms, p99 %.2f ms, max %.2f ms", delivered, failed, seconds, rate, p50 * 1000, p99 * 1000, max * 1000)
        }
    }

    func summary(elapsed: Duration) -> Summary {
        let sorted = latencies.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
        return Summary(delivered: sorted.count, failed: failed, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
                       p50: percentile(0.5), p99: percentile(0.99), max: sorted.last ?? 0, errors: errors)
    }
}
