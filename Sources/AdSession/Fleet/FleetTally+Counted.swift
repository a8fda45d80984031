extension FleetTally {
    /// With `--results`, what a beacon's records are counted at: its row (none: a URL not listed) and its session,
    /// packed in the one `Int` the dispatcher hands back (`BeaconDispatcher.submit(_:countedAt:)`): the row in the low
    /// 24 bits, the session above them (nothing above them: a beacon of no session's room, as a bare row).
    struct Counted: Equatable {
        static let noRow = 0xFF_FFFF
        var row: Int?
        var session: Int?

        init(row: Int?, session: Int?) { (self.row, self.session) = (row, session) }

        init(packed: Int) {
            let low = packed & Self.noRow
            row = low == Self.noRow ? nil : low
            session = packed >> 24 == 0 ? nil : (packed >> 24) - 1
        }

        var packed: Int { ((session ?? -1) + 1) << 24 | (row ?? Self.noRow) }
    }
}
