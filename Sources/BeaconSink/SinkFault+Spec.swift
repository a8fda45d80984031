extension SinkFault {
    /// Longest delay a spec may ask for: one hour. A longer wait is a ``Kind/hang`` in all but name, and
    /// the bound keeps the nanosecond arithmetic far from overflow.
    public static let maximumDelay = Duration.seconds(3600)

    /// Parses a fault from its command-line spec, as `vplay sink --fault SPEC` takes it.
    ///
    /// Grammar (no spaces anywhere):
    /// ```
    /// spec     = action [ "x" times ] "@" pattern
    ///          | "stall=" duration [ "x" times ] "@after:" percent "%" "@" pattern
    /// action   = status | "status=" status | "delay=" duration | "reset" | "hang" | "stall" | "body=" size
    ///          | "rate=" size | "ttfb=" duration | "stall=" duration
    /// status   = an integer 200...599                       e.g. 500, 404, 204
    /// duration = digits [ "." digits ] unit, at most 1 hour  e.g. 200ms, 2s, 1.5s, 250us
    /// unit     = "ns" | "us" | "ms" | "s"
    /// size     = digits [ "k" | "m" ]  (k = ×1024, m = ×1,048,576), at most 1 GiB   e.g. 65536, 64k, 2m
    ///            (for rate=, bytes per second, at least 1: rate=200k is 204,800 bytes/s)
    /// percent  = an integer 0...99: where in the resource a timed stall pauses (default 0: before the body)
    /// times    = an integer ≥ 1: apply to the first `times` matching requests only
    /// pattern  = a path prefix starting with "/", or a glob containing "*"   e.g. /midpoint, *, /t/*/complete
    /// ```
    /// Examples: `500@/midpoint`, `delay=2s@/start`, `reset@*`, `500x1@/complete` (first hit only),
    /// `hang@/impression`, `stall@/midpoint` (200 and headers, then the body stalls), `body=2m@/pixel`, `404x3@/track?event=firstQuartile` (a `?` makes the pattern
    /// match path and query), `rate=200k@/media/*` (bodies at 200 KiB/s), `ttfb=2s@/media/*` (headers 2 s late),
    /// `stall=3s@after:40%@/media/*` (a 3 s pause when 40 % of the file has been sent). `rate`, `ttfb` and
    /// `stall=DURATION` shape an answer and combine with each other and with one answer fault (``SinkFault``).
    /// The action, unit and `after:` are case-insensitive; the pattern is not.
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
        var pattern = String(spec[spec.index(after: at)...])
        var afterPercent: Int?
        if pattern.lowercased().hasPrefix("after:") {
            let example = "e.g. stall=3s@after:40%@/media/*"
            guard let second = pattern.firstIndex(of: "@") else {
                throw invalid("@after:PERCENT% needs a pattern after it: stall=DURATION@after:PERCENT%@PATTERN, \(example)")
            }
            let position = pattern[pattern.index(pattern.startIndex, offsetBy: "after:".count)..<second]
            guard position.hasSuffix("%"), let percent = Self.digits(position.dropLast()), percent <= 99 else {
                throw invalid("the position after \"after:\" must be a whole percent from 0% to 99%, \(example)")
            }
            afterPercent = percent
            pattern = String(pattern[pattern.index(after: second)...])
        }
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
        case _ where action.hasPrefix("rate="):
            let rate = try Self.size(action.dropFirst("rate=".count), what: "rate", orThrow: invalid)
            guard rate >= 1 else {
                throw invalid("the rate must be at least 1 byte per second; for no bytes at all use stall or hang")
            }
            kind = .rate(bytesPerSecond: rate)
        case _ where action.hasPrefix("ttfb="):
            kind = .ttfb(try Self.duration(action.dropFirst("ttfb=".count), what: "ttfb", orThrow: invalid))
        case _ where action.hasPrefix("stall="):
            let pause = try Self.duration(action.dropFirst("stall=".count), what: "stall", orThrow: invalid)
            kind = .timedStall(pause, afterPercent: afterPercent ?? 0)
        case _ where action.hasPrefix("status="):
            kind = .status(try Self.status(action.dropFirst("status=".count), orThrow: invalid))
        case "":
            throw invalid("the action before \"@\" is empty; use a status, delay=…, reset, hang, stall, body=…, rate=…, ttfb=… or stall=…")
        default:
            guard action.first?.isNumber == true else {
                throw invalid("unknown action \"\(action)\"; use a status, delay=…, reset, hang, stall, body=…, rate=…, ttfb=… or stall=…")
            }
            kind = .status(try Self.status(action[...], orThrow: invalid))
        }
        if afterPercent != nil {
            guard case .timedStall = kind else {
                throw invalid("only a timed stall takes @after:PERCENT%, as in stall=3s@after:40%@/media/*")
            }
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
            action = "delay=\(Self.text(of: duration))"
        case .reset:
            action = "reset"
        case .hang:
            action = "hang"
        case .stall:
            action = "stall"
        case .body(let bytes):
            action = "body=\(bytes)"
        case .rate(let bytesPerSecond):
            action = "rate=\(bytesPerSecond)"
        case .ttfb(let duration):
            action = "ttfb=\(Self.text(of: duration))"
        case .timedStall(let duration, let percent):
            let count = times.map { "x\($0)" } ?? ""
            return "stall=\(Self.text(of: duration))\(count)@after:\(percent)%@\(pattern)"
        }
        let count = times.map { "x\($0)" } ?? ""
        return "\(action)\(count)@\(pattern)"
    }

    /// `duration` in the largest of ms, us or ns that keeps it exact, e.g. `3000ms`.
    private static func text(of duration: Duration) -> String {
        let nanoseconds = Self.nanoseconds(duration)
        if nanoseconds % 1_000_000 == 0 {
            return "\(nanoseconds / 1_000_000)ms"
        } else if nanoseconds % 1_000 == 0 {
            return "\(nanoseconds / 1_000)us"
        }
        return "\(nanoseconds)ns"
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
        what: String = "body size",
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
            if what == "rate" {
                throw invalid("the rate must be a whole number of bytes (not bits) per second, optionally with k (×1024) or m (×1,048,576), up to 1 GiB/s, e.g. 200k")
            }
            throw invalid("the \(what) must be a whole number of bytes, optionally with k or m, up to 1 GiB")
        }
        return count * multiplier
    }

    private static func duration(
        _ text: Substring,
        what: String = "delay",
        orThrow invalid: (String) -> BeaconSinkError
    ) throws(BeaconSinkError) -> Duration {
        let units: [(suffix: String, nanoseconds: Int64)] = [
            ("ns", 1), ("us", 1_000), ("ms", 1_000_000), ("s", 1_000_000_000),
        ]
        let problem = "the \(what) must be a number with a unit ns, us, ms or s (e.g. 200ms, 1.5s), at most 1 hour"
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
