import Findings
import VAST

/// A finding as a lint run reports it: with its rule and the severity the run's policy gives it.
public struct LintedFinding: Sendable, Hashable {
    public var finding: Finding
    /// The rule (for an ID the catalogue lacks: a rule of that ID, an error, so it is never silenced by accident).
    public var rule: Rule
    public var severity: Severity
    /// Where its element starts in the linted file (a finding of the tag itself, hop 0, read from a local file).
    public var place: ElementLocator.Place? = nil
}
