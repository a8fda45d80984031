import Findings

/// A finding as a lint run reports it: with its rule and the severity the run's policy gives it.
public struct LintedFinding: Sendable, Hashable {
    public var finding: Finding
    /// The rule (for an ID the catalogue lacks: a rule of that ID, an error, so it is never silenced by accident).
    public var rule: Rule
    public var severity: Severity
}
