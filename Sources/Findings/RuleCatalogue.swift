/// The rules a build of vplay knows, by ID: what `vplay rules` lists, what `--rule` and the config file may name.
/// `AdSession` assembles the whole one (`RuleCatalogue.standard`) from the rules each module checks.
public struct RuleCatalogue: Sendable {
    /// Every rule, in the order they are listed.
    public let rules: [Rule]
    private let byID: [String: Rule]

    /// A catalogue of `rules`, whose IDs must be unique (a duplicate is a programming error).
    public init(_ rules: [Rule]) {
        self.rules = rules
        self.byID = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in
            preconditionFailure("rule \(first.id) is in the catalogue twice")
        })
    }

    /// The rule with that ID, if there is one.
    public func rule(_ id: String) -> Rule? { byID[id] }
}
