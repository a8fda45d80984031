/// A condition's run at the start and at the end of a stream (black, frozen, silent), from timed pieces in order.
struct LeaderRun: Sendable {
    private var first: Double?
    /// Where the first piece that breaks the condition starts (nil while none has).
    private var broken: Double?
    /// Where the current run of the condition started (nil when the last piece broke it).
    private var runStart: Double?
    private var last = 0.0

    /// Takes the piece `start..<end`, which holds the condition from `holdsFrom` on (nil: not at its end) and up to
    /// `holdsUntil` (nil: not from its start). A piece that holds throughout gives both as its own edges.
    mutating func add(start: Double, end: Double, holdsUntil: Double?, holdsFrom: Double?) {
        if first == nil { first = start }
        if broken == nil, holdsUntil != end { broken = holdsUntil ?? start }
        if holdsUntil == end, holdsFrom == start {
            if runStart == nil { runStart = start }
        } else {
            runStart = holdsFrom
        }
        last = max(last, end)
    }

    /// How long the condition holds from the first piece's start.
    var atStart: Double { guard let first else { return 0 }; return (broken ?? last) - first }
    /// How long it holds up to the last piece's end.
    var atEnd: Double { runStart.map { last - $0 } ?? 0 }
    /// Whether it held throughout.
    var throughout: Bool { first != nil && broken == nil }
}
