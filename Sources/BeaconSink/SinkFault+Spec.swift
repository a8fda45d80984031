extension SinkFault {
    /// Longest delay a spec may ask for: one hour. A longer wait is a ``Kind/hang`` in all but name, and
    /// the bound keeps the nanosecond arithmetic far from overflow.
    public static let maximumDelay = Duration.seconds(3600)

    /// Parses a fault from its command-line spec, as `vplay sink --fault SPEC` takes it.
    ///
    /// Grammar (no spaces anywhere):
    /// ```
    /// spec     = action [ "x" times ] "@" pattern
    /// action   = status | "status=" status | "delay=" duration | "reset" | "hang" | "stall" | "body=" size
    /// status   = an integer 200...599                       e.g. 500, 404, 204
    /// duration = digits [ "." digits ] unit, at most 1 hour  e.g. 200ms, 2s, 1.5s, 250us
    /// unit     = "ns" | "us" | "ms" | "s"
    /// size     = digits [ "k" | "m" ]  (k = ×1024, m = ×1,048,576), at most 1 GiB   e.g. 65536, 64k, 2m
    /// times    = an integer ≥ 1: apply to the first `times` matching requests only
    /// pattern  = a path prefix starting with "/", or a glob containing "*"   e.g. /midpoint, *, /t/*/complete
    /// ```
    /// Examples: `500@/midpoint`, `delay=2s@/start`, `reset@*`, `500x1@/complete` (first hit only),
    /// `hang@/impression`, `stall@/midpoint` (200 and headers, then the body stalls), `body=2m@/pixel`, `404x3@/track?event=firstQuartile` (a `?` makes the pattern
    /// match path and query). The action and unit are case-insensitive; the pattern is not.
    ///
    /// - Throws: ``BeaconSinkError/invalidFaultSpec(spec:reason:)`` naming the spec and what is wrong.
    public init(spec: String) throws(BeaconSinkError) {
        func invalid(_ reason: String) -> BeaconSinkError {
            .invalidFaultSpec(spec: spec, reason: reason)
        }
        guard let at = spec.firstIndex(of: "@") else {
            throw invalid("expected ACTION@PATTERN, e.g. 500@/midpoint")
        }
        var action = spec[..<at].lowercased()
        let pattern = String(spec[spec.index(after: at)...])
        if let problem = Self.problem(withPattern: pattern) {
            throw invalid(problem)
        }

        var times: Int?
        if let x = action.lastIndex(of: "x") {
            let count = action[action.index(after: x)...]
            guard let parsed = Self.digits(count), parsed >= 1 else {
                throw invalid("the count after \"x\" must be a whole number of at least 1")
            }
            times = parsed
            action = String(action[..<x])
        }

        let kind: Kind
        switch action {
        case "reset":
            kind = .reset
        case "hang":
            kind = .hang
        case "stall":
            kind = .stall
        case _ where action.hasPrefix("delay="):
            kind = .delay(try Self.duration(action.dropFirst("delay=".count), orThrow: invalid))
        case _ where action.hasPrefix("body="):
            kind = .body(bytes: try Self.size(action.dropFirst("body=".count), orThrow: invalid))
        case _ where action.hasPrefix("status="):
            kind = .status(try Self.status(action.dropFirst("status=".count), orThrow: invalid))
        case "":
            throw invalid("the action before \"@\" is empty; use a status, delay=…, reset, hang, stall or body=…")
        default:
            guard action.first?.isNumber == true else {
                throw invalid("unknown action \"\(action)\"; use a status, delay=…, reset, hang, stall or body=…")
            }
            kind = .status(try Self.status(action[...], orThrow: invalid))
        }
        self.init(pattern: pattern, kind: kind, times: times)
    }

    /// The fault written back in the grammar of ``init(spec:)``, so `SinkFault(spec: f.spec) == f`.
    /// Delays are written in the largest of ms, us or ns that keeps them exact. Hits name their fault this way.
    public var spec: String {
        let action: String
        switch kind {
        case .status(let code):
            action = String(code)
        case .delay(let duration):
            let nanoseconds = Self.nanoseconds(duration)
            if nanoseconds % 1_000_000 == 0 {
                action = "delay=\(nanoseconds / 1_000_000)ms"
            } else if nanoseconds % 1_000 == 0 {
                action = "delay=\(nanoseconds / 1_000)us"
            } else {
                action = "delay=\(nanoseconds)ns"
            }
        case .reset:
            action = "reset"
        case .hang:
            action = "hang"
        case .stall:
            action = "stall"
        case .body(let bytes):
            action = "body=\(bytes)"
        }
        let count = times.map { "x\($0)" } ?? ""
        return "\(action)\(count)@\(pattern)"
    }

    /// Why `pattern` cannot be a fault pattern, or nil when it can.
    static func problem(withPattern pattern: String) -> String? {
        if pattern.isEmpty {
            return "the pattern after \"@\" is empty; use a path prefix like /midpoint or * for every request"
        }
        if pattern.contains(where: \.isWhitespace) {
            return "the pattern contains whitespace"
        }
        if !pattern.hasPrefix("/") && !pattern.contains("*") {
            return "the pattern must start with \"/\" (a path prefix) or contain \"*\" (a glob)"
        }
        return nil
    }

    /// The whole number that `text` spells in ASCII digits, or nil if it is empty, has another
    /// character, or does not fit in an `Int`.
    static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    private static func status(
        _ text: Substring,
        orThrow invalid: (String) -> BeaconSinkError
    ) throws(BeaconSinkError) -> Int {
        guard let code = digits(text), (200...599).contains(code) else {
            throw invalid("the status must be a whole number from 200 to 599, not \"\(text)\"")
        }
        return code
    }

    private static func size(
        _ text: Substring,
        orThrow invalid: (String) -> BeaconSinkError
    ) throws(BeaconSinkError) -> Int {
        var number = text
        var multiplier = 1
        if text.hasSuffix("k") {
            multiplier = 1024
            number = text.dropLast()
        } else if text.hasSuffix("m") {
            multiplier = 1024 * 1024
            number = text.dropLast()
        }
        guard let count = digits(number), count <= SinkLimits.maximumFaultBodyBytes / multiplier else {
            throw invalid("the body size must be a whole number of bytes, optionally with k or m, up to 1 GiB")
        }
        return count * multiplier
    }

    private static func duration(
        _ text: Substring,
        orThrow invalid: (String) -> BeaconSinkError
    ) throws(BeaconSinkError) -> Duration {
        let units: [(suffix: String, nanoseconds: Int64)] = [
            ("ns", 1), ("us", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
        ]
        let problem = "the delay must be a number with a unit ns, us, ms or s (e.g. 200ms, 1.5s), at most 1 hour"
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { throw invalid(problem) }
        let number = text.dropLast(unit.suffix.count)
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let limit = Self.nanoseconds(maximumDelay)
        guard let whole = digits(parts[0]), Int64(whole) <= limit / unit.nanoseconds else { throw invalid(problem) }
        var nanoseconds = Int64(whole) * unit.nanoseconds
        if parts.count == 2 {
            // Nine digits are a nanosecond of a second; more only add precision below 1 ns.
            guard !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { throw invalid(problem) }
            let fraction = parts[1].prefix(9)
            guard let value = digits(fraction) else { throw invalid(problem) }
            var scale: Int64 = 1
            for _ in 0..<fraction.count { scale *= 10 }
            nanoseconds += Int64(value) * unit.nanoseconds / scale
        }
        let duration = Duration.nanoseconds(nanoseconds)
        guard duration <= maximumDelay else { throw invalid(problem) }
        return duration
    }
}
