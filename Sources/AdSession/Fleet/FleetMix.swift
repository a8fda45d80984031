/// What share of a fleet's sessions does what: `complete:70,background:15,skip:10,close:5` (weights, not
/// necessarily summing to 100). Each session's kind is drawn from these weights by its own seeded generator.
public struct FleetMix: Sendable, Equatable, Codable, CustomStringConvertible {
    public struct Share: Sendable, Equatable, Codable {
        public var kind: FleetScenario.Kind
        public var weight: Int
    }

    public var shares: [Share]

    public struct ParseError: Error, Sendable, Equatable, CustomStringConvertible {
        public var description: String
    }

    /// Parses `kind:weight,…` with kinds from `FleetScenario.Kind` and whole, non-negative weights (at least one
    /// positive); a kind may appear once.
    public init(parsing text: String) throws(ParseError) {
        var shares: [Share] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            let kinds = FleetScenario.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            guard parts.count == 2, let kind = FleetScenario.Kind(rawValue: parts[0]) else {
                throw ParseError(description: "--mix '\(item)': expected KIND:WEIGHT with KIND one of \(kinds)")
            }
            guard let weight = Int(parts[1]), weight >= 0, weight <= 1_000_000 else {
                throw ParseError(description: "--mix '\(item)': the weight must be a whole number from 0 to 1000000")
            }
            guard !shares.contains(where: { $0.kind == kind }) else { throw ParseError(description: "--mix names \(kind.rawValue) twice") }
            shares.append(Share(kind: kind, weight: weight))
        }
        guard shares.contains(where: { $0.weight > 0 }) else { throw ParseError(description: "--mix needs at least one positive weight") }
        self.shares = shares
    }

    public var total: Int { shares.reduce(0) { $0 + $1.weight } }

    /// The kind a uniform draw in `0..<total` falls on.
    func kind(at draw: Int) -> FleetScenario.Kind {
        var rest = draw
        for share in shares {
            if rest < share.weight { return share.kind }
            rest -= share.weight
        }
        return shares.last { $0.weight > 0 }!.kind
    }

    public var description: String { shares.map { "\($0.kind.rawValue):\($0.weight)" }.joined(separator: ",") }
}
