/// What share of a fleet's sessions does what: `complete:70,background:15,skip:10,close:5` (weights, not
/// necessarily summing to 100). Each session's kind is drawn from these weights by its own seeded generator.
public struct FleetMix: Sendable, Equatable, Codable, CustomStringConvertible {
    /// One kind of scenario and its weight in the mix.
    public struct Share: Sendable, Equatable, Codable {
        /// The scenario kind.
        public var kind: FleetScenario.Kind
        /// Its relative weight: a whole number, 0 or more.
        public var weight: Int
    }

    /// The kinds and their weights, in the order written.
    public var shares: [Share]

    /// Why a `--mix` value could not be parsed; `description` is the message for the user.
    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Parses `kind:weight,…` with kinds from `FleetScenario.Kind` and whole, non-negative weights (at least one
    /// positive); a kind may appear once.
    public init(parsing text: String) throws(ParseError) {
        let kinds = FleetScenario.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        switch WeightedList.parse(text, option: "--mix", expected: "KIND:WEIGHT with KIND one of \(kinds)",
                                  key: { FleetScenario.Kind(rawValue: $0) }, same: ==, name: \.rawValue) {
        case let .success(shares): self.shares = shares.map { Share(kind: $0.key, weight: $0.weight) }
        case let .failure(message): throw ParseError(description: message.text)
        }
    }

    /// The sum of the weights; a draw for a session's kind is uniform in `0..<total`.
    public var total: Int { shares.reduce(0) { $0 + $1.weight } }

    /// The kind a uniform draw in `0..<total` falls on.
    func kind(at draw: Int) -> FleetScenario.Kind { shares[WeightedList.pick(shares.map(\.weight), draw: draw)].kind }

    public var description: String { shares.map { "\($0.kind.rawValue):\($0.weight)" }.joined(separator: ",") }
}
