import PlayerEngine

extension SessionRecord {
    /// The record of a VMAP break that started at session time `start`, as the session reports it: events, errors
    /// and pod ads moved from the break's clock to the session's and tagged with the break's `number`; warnings
    /// say which break.
    func inBreak(_ number: Int, startingAt start: Duration) -> SessionRecord {
        switch self {
        case var .event(event):
            event.clock += start
            event.adBreak = number
            return .event(event)
        case var .error(error):
            error.clock = error.clock.map { $0 + start }
            return .error(error)
        case var .ad(report):
            report.start = report.start.map { $0 + start }
            report.end = report.end.map { $0 + start }
            return .ad(report)
        case let .warning(text):
            return .warning("break \(number): \(text)")
        case .resolved, .beacon, .reconciliation, .adBreak:
            return self
        }
    }
}
