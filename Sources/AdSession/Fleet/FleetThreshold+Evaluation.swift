import Foundation

extension FleetThreshold {
    /// The threshold judged on `report`: a scope with nothing in it (no such event, URL, network or ad) fails, saying so,
    /// and so does a ratio over zero.
    public func evaluate(_ report: FleetReport) -> Verdict {
        evaluate(Figures(report))
    }

    /// The threshold judged on `figures` (a report's, or a running fleet's so far).
    func evaluate(_ figures: Figures) -> Verdict {
        func verdict(_ actual: Double?, _ why: String? = nil) -> Verdict {
            guard let actual else { return Verdict(threshold: self, passed: false, actual: nil, message: "\(text): \(why ?? "nothing to judge")") }
            let passed = comparison.holds(actual, value)
            let shown = if case .latency = metric { "\(Self.format(actual * 1000)) ms" } else { Self.format(actual) }
            return Verdict(threshold: self, passed: passed, actual: actual, message: "\(text): \(shown)\(passed ? "" : ", not \(comparison.rawValue) \(valueText)")")
        }
        switch metric {
        case let .latency(percentile):
            guard let seconds = figures.latency[percentile] else { return verdict(nil, "no beacon latency was recorded") }
            return verdict(seconds)
        case let .count(name):
            let (value, why) = count(name, in: figures)
            return verdict(value, why)
        case let .ratio(top, bottom):
            let (numerator, why) = count(top, in: figures)
            let (denominator, whyNot) = count(bottom, in: figures)
            guard let numerator, let denominator else { return verdict(nil, why ?? whyNot) }
            guard denominator > 0 else { return verdict(nil, "\(bottom) is 0 in its scope") }
            return verdict(numerator / denominator)
        }
    }

    private var valueText: String {
        if case .latency = metric { return "\(Self.format(value * 1000)) ms" }
        return Self.format(value)
    }

    /// A count in the scope, or why there is none.
    private func count(_ name: String, in figures: Figures) -> (value: Double?, why: String?) {
        if case let .network(profile) = scope {
            guard let network = figures.networks?[profile] else { return (nil, "no session ran on network \(profile)") }
            let value: Int = switch name {
            case "sessions": network.sessions
            case "failedToLoad": network.failedToLoad
            case "stalled": network.sessionsThatStalled
            case "rebuffers": network.rebuffers
            case "sent": network.beaconsSent
            case "delivered": network.beaconsDelivered
            case "failures": network.beaconsFailed
            default: network.reached[name] ?? 0
            }
            return (Double(value), nil)
        }
        if name == "failures" { return (Double(figures.failures), nil) }
        let rows = figures.beacons.filter { row in
            switch scope {
            case .fleet, .network: true
            case let .event(event): row.event == event
            case let .url(text): row.template.contains(text)
            case let .ad(index): row.ad == index
            }
        }
        guard !rows.isEmpty else { return (nil, "no tracking URL in its scope") }
        if name == "received", rows.contains(where: { $0.received == nil }) { return (nil, "arrivals are counted only with --sink") }
        let total = rows.reduce(0) { sum, row in
            let count: Int = switch name {
            case "expected": row.expected
            case "sent": row.sent
            case "delivered": row.delivered
            default: row.received ?? 0
            }
            return sum + count
        }
        return (Double(total), nil)
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(format: "%.4g", value)
    }
}
