import ArgumentParser

/// `--tag-timeouts first,each`: how long the first tag request may take, then each wrapper's.
struct TagTimeouts: Equatable, Sendable, CustomStringConvertible {
    var first: Duration
    var each: Duration

    /// IMA on iOS: 8 s for the first request, 4 s per wrapper.
    static let ima = TagTimeouts(first: .seconds(8), each: .seconds(4))

    init(first: Duration, each: Duration) {
        self.first = first
        self.each = each
    }

    /// Parses two positive numbers of seconds, at most a year each, as whole milliseconds.
    init(parsing text: String) throws {
        let parts = text.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ OptionRanges.isSeconds($0, positive: true) }) else {
            throw ValidationError("--tag-timeouts must be two positive numbers of seconds, like 8,4")
        }
        self.init(first: OptionRanges.duration(seconds: parts[0]), each: OptionRanges.duration(seconds: parts[1]))
    }

    var description: String { "\(OptionRanges.text(seconds: first)),\(OptionRanges.text(seconds: each))" }
}
