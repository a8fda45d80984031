import TrackingBeacons

/// Counts what a session reported, and passes each record on to the observer.
actor Tally {
    private let observer: @Sendable (SessionRecord) async -> Void
    private var events = 0, plannedCount = 0, delivered = 0, failed = 0, lost = 0
    /// Every beacon record, for reconciliation with the sink.
    private(set) var beacons: [BeaconRecord] = []
    private var warnings: [String] = []

    init(observer: @escaping @Sendable (SessionRecord) async -> Void) { self.observer = observer }

    func send(_ record: SessionRecord) async {
        switch record {
        case .event: events += 1
        case let .warning(text): warnings.append(text)
        default: break
        }
        await observer(record)
    }

    func planned() { plannedCount += 1 }

    func beacon(_ record: BeaconRecord) async {
        if !record.dryRun && record.isFinalAttempt {
            if record.delivered { delivered += 1 } else if record.failure == .lost { lost += 1 } else { failed += 1 }
        }
        beacons.append(record)
        await observer(.beacon(record))
    }

    func fill(_ summary: inout SessionSummary) {
        summary.events = events
        summary.beaconsPlanned = plannedCount
        summary.beaconsDelivered = delivered
        summary.beaconsFailed = failed
        summary.beaconsLost = lost
        summary.warnings = warnings
    }
}
