import Primitives

/// One value of a beacon record's JSON (`BeaconRecord.fields(session:)`).
public enum BeaconRecordValue: Sendable, Equatable {
    /// JSON `null`.
    case null
    /// A JSON boolean.
    case bool(Bool)
    /// A JSON integer.
    case int(Int)
    /// Seconds, rounded to the microsecond.
    case seconds(Double)
    /// A JSON string.
    case string(String)
    /// A JSON array of strings.
    case strings([String])
}

/// The beacon record's one JSON shape, the same in the beacon log (`--beacons FILE`, one object per attempt), the
/// `beacon` lines of `--json` and the `beacons` of `--report` (`schemas/beacon-record.schema.json`). Durations in
/// seconds to the microsecond (`playhead`, `clock`, `latency`, `offset`), the instant `sentAt` as ISO 8601 UTC with
/// milliseconds (null when not sent). `offset` on a progress beacon, `requestedURL` when the request went elsewhere
/// than `url` (the embedded sink), `redirects` when redirects were followed, `ad` (the ad's place in its pod) in a
/// pod, `unknownMacros` when the template has any.
extension BeaconRecord {
    /// The record as ordered key–value pairs: every record has the keys up to `session` (null when without a value),
    /// then the optional ones; `session` names the session it belongs to (docs/reference/json.md).
    public func fields(session: String) -> [(key: String, value: BeaconRecordValue)] {
        var fields: [(key: String, value: BeaconRecordValue)] = [
            ("event", .string(event)), ("source", .string(source)), ("template", .string(template)), ("url", .string(url)),
            ("playhead", .seconds(playhead.microsecondSeconds)), ("clock", .seconds(clock.microsecondSeconds)),
            ("sentAt", sentAt.map { .string(ISO8601Time.text(milliseconds: $0)) } ?? .null),
            ("attempt", .int(attempt)), ("finalAttempt", .bool(isFinalAttempt)), ("status", status.map(BeaconRecordValue.int) ?? .null),
            ("latency", latency.map { .seconds($0.microsecondSeconds) } ?? .null), ("bytes", bytes.map(BeaconRecordValue.int) ?? .null),
            ("error", error.map(BeaconRecordValue.string) ?? .null), ("errorCode", failure.map { .string($0.code) } ?? .null),
            ("delivered", .bool(delivered)), ("dryRun", .bool(dryRun)), ("session", .string(session)),
        ]
        if let offset = planned.offset { fields.append(("offset", .seconds(offset.microsecondSeconds))) }
        if let requestedURL, requestedURL != url { fields.append(("requestedURL", .string(requestedURL))) }
        if !redirects.isEmpty { fields.append(("redirects", .strings(redirects))) }
        if let ad = planned.ad { fields.append(("ad", .int(ad))) }
        if let adBreak = planned.adBreak { fields.append(("break", .int(adBreak))) }
        if !unknownMacros.isEmpty { fields.append(("unknownMacros", .strings(unknownMacros))) }
        return fields
    }

    /// A record with the session it belongs to: what a beacon log line encodes.
    public struct Line: Encodable, Sendable {
        /// The beacon record.
        public var record: BeaconRecord
        /// The name of the session it belongs to.
        public var session: String

        /// A line for `record` of the session named `session`.
        public init(_ record: BeaconRecord, session: String) {
            self.record = record
            self.session = session
        }

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Key.self)
            for (key, value) in record.fields(session: session) {
                let key = Key(stringValue: key)
                switch value {
                case .null: try c.encodeNil(forKey: key)
                case let .bool(value): try c.encode(value, forKey: key)
                case let .int(value): try c.encode(value, forKey: key)
                case let .seconds(value): try c.encode(value, forKey: key)
                case let .string(value): try c.encode(value, forKey: key)
                case let .strings(value): try c.encode(value, forKey: key)
                }
            }
        }
    }
}

extension BeaconRecord {
    /// Seconds rounded to the microsecond.
    static func seconds(_ duration: Duration) -> Double { duration.microsecondSeconds }
}
