import Findings
import Testing

/// The severities of a run: the catalogue's defaults, the config file's, then `--rule`'s; patterns; typos refused.
@Suite struct RulePolicyTests {
    static let catalogue = RuleCatalogue([
        Rule("VAST-2.0-inline-adtitle", .error, spec: "s", "title"),
        Rule("VPLAY-media-fallback", .warning, spec: "s", "fallback"),
        Rule("VPLAY-media-moov-after-mdat", .warning, spec: "s", "moov"),
        Rule("VPLAY-pod-first-only", .info, spec: "s", "pod"),
    ])
    static func rule(_ id: String) -> Rule { catalogue.rule(id)! }

    @Test func defaults_thenExactSettings_thenOff() throws {
        var policy = RulePolicy()
        #expect(policy.severity(of: Self.rule("VAST-2.0-inline-adtitle")) == .error)
        try policy.apply("VAST-2.0-inline-adtitle=warning", in: Self.catalogue)
        try policy.apply(" VPLAY-pod-first-only = OFF ", in: Self.catalogue)
        #expect(policy.severity(of: Self.rule("VAST-2.0-inline-adtitle")) == .warning)
        #expect(policy.severity(of: Self.rule("VPLAY-pod-first-only")) == nil)
        #expect(policy.severity(of: Self.rule("VPLAY-media-fallback")) == .warning, "untouched")
    }

    @Test func patterns_applyToEveryIDTheyBegin_exactAndLongerWin() throws {
        var policy = RulePolicy()
        try policy.apply("VPLAY-*=info", in: Self.catalogue)
        try policy.apply("VPLAY-media-*=error", in: Self.catalogue)
        try policy.apply("VPLAY-media-fallback=off", in: Self.catalogue)
        #expect(policy.severity(of: Self.rule("VPLAY-pod-first-only")) == .info)
        #expect(policy.severity(of: Self.rule("VPLAY-media-moov-after-mdat")) == .error, "the longer pattern wins")
        #expect(policy.severity(of: Self.rule("VPLAY-media-fallback")) == nil, "the exact ID wins")
        #expect(policy.severity(of: Self.rule("VAST-2.0-inline-adtitle")) == .error)
    }

    @Test func typosAndBadLevels_areRefused_notIgnored() {
        var policy = RulePolicy()
        #expect(throws: RulePolicyError.unknownRule("VAST-2.0-inline-adtitel")) { try policy.apply("VAST-2.0-inline-adtitel=off", in: Self.catalogue) }
        #expect(throws: RulePolicyError.unknownRule("NOPE-*")) { try policy.apply("NOPE-*=off", in: Self.catalogue) }
        #expect(throws: RulePolicyError.badLevel(key: "VPLAY-media-fallback", level: "fatal")) {
            try policy.apply("VPLAY-media-fallback=fatal", in: Self.catalogue)
        }
        #expect(throws: RulePolicyError.badSetting("VPLAY-media-fallback")) { try policy.apply("VPLAY-media-fallback", in: Self.catalogue) }
        #expect(policy == RulePolicy(), "nothing was set")
    }

    @Test func aFindingOfAnUnlistedRule_isAnError() {
        #expect(RulePolicy().severity(of: Finding(ruleID: "VPLAY-gone", "x"), in: Self.catalogue) == .error)
    }

    @Test func theConfigFile_setsWhatItSays_andNamesTheLineOfWhatItRefuses() throws {
        var policy = RulePolicy()
        try RuleConfig.apply("""
            # team policy
            [rules]
            "VAST-2.0-inline-adtitle" = "warning"   # titles are optional for us
            "VPLAY-media-*" = "off"

            """, file: "lint.toml", to: &policy, catalogue: Self.catalogue)
        #expect(policy.severity(of: Self.rule("VAST-2.0-inline-adtitle")) == .warning)
        #expect(policy.severity(of: Self.rule("VPLAY-media-fallback")) == nil)
        let refused: [(String, RulePolicyError)] = [
            ("[rules]\n\"VAST-2.0-inline-adtitle\" = warning", .config(file: "f", line: 2, "the level must be a quoted string (\"error\", \"warning\", \"info\" or \"off\")")),
            ("\"VAST-2.0-inline-adtitle\" = \"off\"", .config(file: "f", line: 1, "a setting before the [rules] table")),
            ("[rules]\n\n[other]", .config(file: "f", line: 3, "only a [rules] table is read, not [other]")),
            ("[rules]\n\"VPLAY-typo\" = \"off\"", .config(file: "f", line: 2, "VPLAY-typo names no rule (vplay rules lists them)")),
        ]
        for (text, error) in refused {
            var other = RulePolicy()
            #expect(throws: error, "\(text)") { try RuleConfig.apply(text, file: "f", to: &other, catalogue: Self.catalogue) }
        }
    }

    @Test func severities_areOrdered_andRulesKnowTheirFamily() {
        #expect(Severity.info < .warning && Severity.warning < .error)
        #expect(Self.rule("VAST-2.0-inline-adtitle").family == "VAST-2.0" && Self.rule("VAST-2.0-inline-adtitle").isVastlintID)
        #expect(Self.rule("VPLAY-media-fallback").family == "VPLAY-media" && !Self.rule("VPLAY-media-fallback").isVastlintID)
        #expect(Finding(Self.rule("VPLAY-media-fallback"), "m", path: "VAST/Ad[1]").description == "VPLAY-media-fallback at VAST/Ad[1]: m")
    }
}
