/// One check vplay makes, with a stable ID: what `vplay rules` lists and every finding names.
///
/// IDs in vastlint's form (`VAST-2.0-inline-adsystem`: the VAST version that brought the requirement, then a name) are
/// vastlint's own, for the checks both tools make, so a team can run both and compare; `VPLAY-…` IDs are vplay's, for
/// what vastlint does not check and what only a player knows (the media as decoded, the chain as resolved, the
/// beacons as answered). An ID never changes once published; a retired rule keeps its ID out of use.
public struct Rule: Sendable, Hashable {
    /// The stable ID.
    public var id: String
    /// The severity a finding has unless `--rule` or the config file says otherwise.
    public var severity: Severity
    /// The clause the rule rests on (`VAST 4.3 §3.4.1`, `IAB Ad Format Guidelines v2.0 (video)`, …).
    public var specReference: String
    /// What the rule asks, in one line.
    public var summary: String

    public init(_ id: String, _ severity: Severity, spec specReference: String, _ summary: String) {
        self.id = id
        self.severity = severity
        self.specReference = specReference
        self.summary = summary
    }

    /// Whether the ID is vastlint's (the same check under the same name) rather than vplay's own.
    public var isVastlintID: Bool { !id.hasPrefix("VPLAY-") }

    /// The family the docs group it in: the ID's prefix up to its version (`VAST-2.0`, `SIMID-1.0`) or its second
    /// word (`VPLAY-media`, `VPLAY-error`).
    public var family: String {
        let parts = id.split(separator: "-", maxSplits: 2).map(String.init)
        return parts.count >= 2 ? parts[0] + "-" + parts[1] : id
    }
}
