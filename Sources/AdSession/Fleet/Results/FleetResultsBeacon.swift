import SQLite
import TrackingBeacons

/// A beacon attempt's row in `--results`: its session and tracking URL (row of `tracking_urls`), when it went out,
/// its answer, and, for a final attempt not delivered, the failure as the report counts it.
struct FleetResultsBeacon: Sendable {
    var session: Int?
    var row: Int?
    var attempt: Int
    var final: Bool
    var sent: Bool
    var sentAt: Int64?
    var status: Int?
    var latencyMicroseconds: Int64?
    var delivered: Bool
    var failure: String?

    /// As the tally counts it (`FleetTally.Counts.count(_:row:)`).
    init(_ record: BeaconRecord, session: Int?, row: Int?) {
        self.session = session
        self.row = row
        attempt = record.attempt
        final = record.isFinalAttempt
        sent = record.wasSent
        sentAt = record.sentAt
        status = record.status
        if let latency = record.latency, record.wasSent {
            let (seconds, attoseconds) = latency.components
            latencyMicroseconds = max(1, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
        }
        delivered = record.delivered
        if record.isFinalAttempt, !record.dryRun, !record.delivered {
            failure = (record.failure ?? record.status.map { .httpStatus($0) } ?? .other("failed")).description
        }
    }

    var values: [SQLiteValue] {
        [.init(session), .init(row), .init(attempt), .init(final ? 1 : 0), .init(sent ? 1 : 0), sentAt.map { .integer($0) } ?? .null, .init(status),
         latencyMicroseconds.map { .integer($0) } ?? .null, .init(delivered ? 1 : 0), .init(failure)]
    }
}
