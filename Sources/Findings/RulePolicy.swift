import Foundation

/// The severity each rule has for one run: the catalogue's defaults changed by the config file, then by `--rule`.
/// A rule may be turned off (its findings are not reported). A key ending in `*` applies to every ID it begins
/// (`VPLAY-media-*`, `VAST-4.1-*`); an exact ID wins over a pattern, and a longer pattern over a shorter one.
public struct RulePolicy: Sendable, Hashable {
    /// ID or pattern → severity, nil for off.
    public private(set) var settings: [String: Severity?] = [:]

    public init() {}

    /// The severity of `rule` under this policy; nil when it is off.
    public func severity(of rule: Rule) -> Severity? {
        if let exact = settings[rule.id] { return exact }
        let patterns = settings.keys.filter { $0.hasSuffix("*") && rule.id.hasPrefix($0.dropLast()) }
        if let longest = patterns.max(by: { $0.count < $1.count }) { return settings[longest]! }
        return rule.severity
    }

    /// The severity of the finding's rule; nil when off. A finding of an ID the catalogue lacks is an error (it
    /// cannot be silenced by accident).
    public func severity(of finding: Finding, in catalogue: RuleCatalogue) -> Severity? {
        guard let rule = catalogue.rule(finding.rule) else { return .error }
        return severity(of: rule)
    }

    /// Sets `key` (an ID or a pattern) to `level`: `error`, `warning`, `info` or `off`. Throws when the level is
    /// none of those, or when `key` names no rule of `catalogue` (a typo would otherwise silently do nothing).
    public mutating func set(_ key: String, to level: String, in catalogue: RuleCatalogue) throws(RulePolicyError) {
        let severity: Severity?
        switch level.lowercased() {
        case "off": severity = nil
        case let name:
            guard let value = Severity(rawValue: name) else { throw .badLevel(key: key, level: level) }
            severity = value
        }
        let matches = key.hasSuffix("*") ? catalogue.rules.contains { $0.id.hasPrefix(key.dropLast()) } : catalogue.rule(key) != nil
        guard matches else { throw .unknownRule(key) }
        settings[key] = .some(severity)
    }

    /// Applies one `--rule ID=LEVEL` setting.
    public mutating func apply(_ setting: String, in catalogue: RuleCatalogue) throws(RulePolicyError) {
        let parts = setting.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, !parts[0].isEmpty else { throw .badSetting(setting) }
        try set(parts[0], to: parts[1], in: catalogue)
    }
}
