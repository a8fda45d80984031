import Foundation

/// A simulated network for the media download: a round-trip time and a download rate that may change over time
/// (`--network`, `--network-trace`). Pure: it says when the n-th byte of a download has arrived, never sleeps.
///
/// The download model is a single progressive GET from the first byte, as a player without byte-range requests
/// fetches an MP4: the first byte arrives two round trips after the request (TCP connect, then the request), the rest
/// at the profile's rate, integrated over time. Named profiles are WebPageTest's connectivity profiles
/// (`connectivity.ini`: "3G Fast" is Lighthouse's default, 1.6 Mbps and 150 ms), except `wifi`, which is vplay's own.
public struct NetworkProfile: Sendable, Equatable, CustomStringConvertible {
    /// One step of the rate: from `at` (seconds since the download started) on, `kbps` kilobits (1000 bits) a second.
    public struct Step: Sendable, Equatable {
        /// When the step begins, from the start of the download.
        public var at: Duration
        /// The rate from then on, in kilobits (1000 bits) a second.
        public var kbps: Double
        /// A step to `kbps` at `at`.
        public init(at: Duration, kbps: Double) {
            self.at = at
            self.kbps = kbps
        }
    }

    /// Why a `--network` value could not be parsed; `description` is the message for the user.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// The profile's name (`fast3g`, `kbps=500,rtt=100`, the trace file's name).
    public var name: String
    /// The round-trip time.
    public var rtt: Duration
    /// The rate over time, ascending; the first at 0.
    public private(set) var steps: [Step]

    /// A profile as given: a negative `rtt` counts as 0, steps are sorted by time, and a rate of 0 is added at 0 when
    /// no step starts there.
    public init(name: String, rtt: Duration, steps: [Step]) {
        self.name = name
        self.rtt = max(.zero, rtt)
        var sorted = steps.sorted { $0.at < $1.at }
        if sorted.first.map({ $0.at > .zero }) ?? true { sorted.insert(Step(at: .zero, kbps: 0), at: 0) }
        self.steps = sorted
    }

    public var description: String { name }

    /// The named profiles: name, kbps down, RTT in ms.
    public static let named: [(name: String, kbps: Double, rttMilliseconds: Int64)] = [
        ("wifi", 30_000, 28), ("4g", 9_000, 170), ("fast3g", 1_600, 150), ("slow3g", 400, 400), ("offline", 0, 0),
    ]

    /// Parses `--network`: a name (`wifi`, `4g`, `fast3g`, `slow3g`, `offline`) or `kbps=N,rtt=MS` (`rtt` may be
    /// left out: 0).
    public init(parsing text: String) throws(ParseError) {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
        if let named = Self.named.first(where: { $0.name == key }) {
            self.init(name: named.name, rtt: .milliseconds(named.rttMilliseconds), steps: [Step(at: .zero, kbps: named.kbps)])
            return
        }
        var kbps: Double?
        var rtt: Duration = .zero
        var seen: Set<String> = []
        for part in key.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            // Decimal numbers only: Swift's `Double("0x10")` reads hexadecimal (16).
            guard pair.count == 2, Self.isDecimal(pair[1]), let value = Double(pair[1]), value.isFinite, value >= 0 else {
                throw ParseError(description: "network '\(text)': expected a name (\(Self.named.map(\.name).joined(separator: ", "))) or kbps=N,rtt=MS with decimal numbers")
            }
            guard seen.insert(pair[0]).inserted else { throw ParseError(description: "network '\(text)': \(pair[0]) is given twice") }
            switch pair[0] {
            case "kbps": kbps = value
            case "rtt":
                guard value <= 60_000 else { throw ParseError(description: "network '\(text)': rtt is at most 60000 ms") }
                rtt = .nanoseconds(Int64((value * 1e6).rounded()))
            default: throw ParseError(description: "network '\(text)': unknown key '\(pair[0])' (kbps, rtt)")
            }
        }
        guard let kbps else { throw ParseError(description: "network '\(text)': kbps=N is required (or a name: \(Self.named.map(\.name).joined(separator: ", ")))") }
        self.init(name: "kbps=\(Self.number(kbps)),rtt=\(Self.number(rtt.seconds * 1000))", rtt: rtt, steps: [Step(at: .zero, kbps: kbps)])
    }

    /// A decimal number as written by a person or a script: digits, a `.`, an exponent (`500`, `1.5`, `1e-3`); not
    /// hexadecimal (`0x10`, which `Double` reads as 16), `inf` or `nan`.
    static func isDecimal(_ text: String) -> Bool {
        guard let first = text.utf8.first, (48...57).contains(first) || first == UInt8(ascii: ".") else { return false }
        return text.utf8.allSatisfy { (48...57).contains($0) || $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }
    }

    /// Parses a `--network-trace` file: `[{"at": 0, "kbps": 2000}, {"at": 5, "kbps": 0}, …]` (or that array under
    /// `"steps"`, with an optional `"rtt"` in ms beside it); `at` in seconds since the download started.
    public init(trace data: Data, name: String) throws(ParseError) {
        let parsed: Any
        do { parsed = try JSONSerialization.jsonObject(with: data) } catch {
            throw ParseError(description: "network trace \(name) is not JSON: \(error.localizedDescription)")
        }
        let object = parsed as? [String: Any]
        guard let list = (parsed as? [Any]) ?? (object?["steps"] as? [Any]), !list.isEmpty else {
            throw ParseError(description: "network trace \(name): expected [{\"at\": seconds, \"kbps\": rate}, …] or {\"rtt\": ms, \"steps\": [...]}")
        }
        var rtt: Duration = .zero
        if let value = object?["rtt"] {
            guard let ms = Self.jsonNumber(value), ms.isFinite, ms >= 0, ms <= 60_000 else {
                throw ParseError(description: "network trace \(name): \"rtt\" must be milliseconds from 0 to 60000")
            }
            rtt = .nanoseconds(Int64((ms * 1e6).rounded()))
        }
        var steps: [Step] = []
        for (index, entry) in list.enumerated() {
            guard let step = entry as? [String: Any], let at = Self.jsonNumber(step["at"]), let kbps = Self.jsonNumber(step["kbps"]),
                  at.isFinite, at >= 0, at < 86_400, kbps.isFinite, kbps >= 0 else {
                throw ParseError(description: "network trace \(name) step \(index + 1): expected {\"at\": seconds ≥ 0, \"kbps\": rate ≥ 0}")
            }
            steps.append(Step(at: .nanoseconds(Int64((at * 1e9).rounded())), kbps: kbps))
        }
        self.init(name: name, rtt: rtt, steps: steps)
    }

    /// A JSON number (not a boolean: JSONSerialization gives `true` as an `NSNumber` too).
    private static func jsonNumber(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return number.doubleValue
    }

    /// The rate when the download starts, in kbps (what `--bandwidth auto` selects a media file by).
    public var initialKbps: Double { steps.first?.kbps ?? 0 }

    /// `initialKbps` as a target bitrate for choosing media: whole kbps, at least 1, at most 10⁹.
    public var targetKbps: Int { max(1, Int(min(initialKbps, 1e9))) }

    /// When the first byte of a download started at 0 arrives: TCP connect and the request, two round trips.
    public var firstByte: Duration { rtt * 2 }

    /// Arrivals later than this are "never" (a rate of a millionth of a kbps would otherwise overflow a `Duration`'s
    /// nanoseconds): a year, far past any timeout.
    public static let horizon: Duration = .seconds(365 * 86_400)

    /// When the first `bytes` bytes of a download started at 0 have all arrived; nil when they never do (the rate
    /// stays 0, or it would take more than `horizon`). Exact to the nanosecond.
    public func arrival(ofBytes bytes: Int64) -> Duration? {
        guard bytes > 0 else { return firstByte }
        var remaining = Double(bytes) * 8  // bits
        var time = firstByte
        for (index, step) in steps.enumerated() {
            let end = index + 1 < steps.count ? steps[index + 1].at : nil
            if let end, end <= time { continue }
            let from = max(time, step.at)
            let rate = step.kbps * 1000  // bits per second
            if let end {
                let capacity = rate * (end - from).seconds
                if rate > 0, capacity >= remaining { return Self.after(from, seconds: remaining / rate) }
                remaining -= capacity
                time = end
            } else {
                guard rate > 0 else { return nil }
                return Self.after(from, seconds: remaining / rate)
            }
        }
        return nil
    }

    /// `start` plus `seconds` rounded up to the nanosecond, or nil past `horizon`.
    private static func after(_ start: Duration, seconds: Double) -> Duration? {
        guard seconds.isFinite, seconds < horizon.seconds else { return nil }
        let end = start + .nanoseconds(Int64((seconds * 1e9).rounded(.up)))
        return end < horizon ? end : nil
    }

    /// How many bytes of a download started at 0 have arrived by `time` (the inverse of `arrival(ofBytes:)`).
    public func bytes(arrivedBy time: Duration) -> Int64 {
        guard time > firstByte else { return 0 }
        var bits = 0.0
        for (index, step) in steps.enumerated() {
            let end = min(time, index + 1 < steps.count ? steps[index + 1].at : time)
            let from = max(firstByte, step.at)
            if end > from { bits += step.kbps * 1000 * (end - from).seconds }
            if end >= time { break }
        }
        // A huge rate for a long time: more bytes than any file has.
        return bits / 8 < 1e18 ? Int64((bits / 8).rounded(.down)) : Int64(1e18)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
