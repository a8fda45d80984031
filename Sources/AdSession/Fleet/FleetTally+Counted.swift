extension FleetTally {
    /// With `--results` or `--network-mix`, what a beacon's records are counted at: its row (none: a URL not listed),
    /// its session's network (an index of the tally's `networkNames`) and its session, packed in the one `Int` the
    /// dispatcher hands back (`BeaconDispatcher.submit(_:countedAt:)`): the row in the low 24 bits, the network + 1 in
    /// the next 8 (0: none), the session + 1 above them (0: a beacon of no session's room).
    struct Counted: Equatable {
        static let noRow = 0xFF_FFFF
        /// The most networks a mix may have: the network + 1 takes 8 bits (`NetworkMix` refuses more).
        static let maxNetworks = 0xFF
        /// The most sessions a fleet may have: the session + 1 takes the 31 bits above (`FleetConfiguration.maxSessions`).
        static let maxSessions = FleetConfiguration.maxSessions
        var row: Int?
        var network: Int?
        var session: Int?

        init(row: Int?, network: Int? = nil, session: Int?) { (self.row, self.network, self.session) = (row, network, session) }

        init(packed: Int) {
            let low = packed & Self.noRow, network = (packed >> 24) & 0xFF, session = packed >> 32
            row = low == Self.noRow ? nil : low
            self.network = network == 0 ? nil : network - 1
            self.session = session == 0 ? nil : session - 1
        }

        var packed: Int { ((session ?? -1) + 1) << 32 | ((network ?? -1) + 1) << 24 | (row ?? Self.noRow) }
    }
}
