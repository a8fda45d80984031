import Findings
import Foundation
import VAST

/// What `vplay lint` found in one tag: every finding of the inspection (the document's, the resolution's, the media's
/// and each error with its VAST code) under the run's severities, rules turned off left out.
public struct TagLint: Sendable {
    /// The tag as given (a file path or a URL).
    public var tag: String
    /// The findings, in the order the inspection met them: warnings, then errors.
    public var findings: [LintedFinding]

    /// Whether any finding is an error under the run's policy (the tag fails the lint).
    public var failed: Bool { findings.contains { $0.severity == .error } }

    /// The lint of `inspection` under `policy`.
    public init(_ inspection: AdInspection, policy: RulePolicy, catalogue: RuleCatalogue = .standard) {
        tag = inspection.tag
        let all = inspection.warnings + inspection.errors.map { Finding(.vastError($0.code), $0.message) }
        findings = all.compactMap { finding in
            let rule = catalogue.rule(finding.rule) ?? Rule(finding.rule, .error, spec: "", "a rule this build does not list")
            return policy.severity(of: rule).map { LintedFinding(finding: finding, rule: rule, severity: $0) }
        }
    }

    /// Lints `tag`: resolved, its media chosen and (unless `openMedia` is false) opened, nothing played; with
    /// `creative`, the media decoded once through creative QA against those targets.
    /// Each tag request carries `Origin: origin` (the configuration's `tagOrigin` when set), as a web player's would,
    /// and each answer's CORS and Content-Type are checked; the chain's depth and time are checked from its hops.
    /// With `probeBeacons`, each tracking URL is requested once and its answer judged (`BeaconProbe`).
    public static func lint(_ configuration: SessionConfiguration, openMedia: Bool, creative: CreativeTargets? = nil, probeBeacons: Bool = false,
                            policy: RulePolicy, catalogue: RuleCatalogue = .standard) async -> TagLint {
        var configuration = configuration
        let origin = configuration.tagOrigin ?? Self.defaultOrigin
        configuration.tagOrigin = origin
        var environment = SessionEnvironment.live(configuration)
        let recorder = ServingRecorder(environment.tagFetcher)
        environment.tagFetcher = recorder
        var inspection = await AdInspector(configuration: configuration, environment: environment).inspect(openMedia: openMedia, creative: creative)
        inspection.warnings += recorder.findings(origin: origin) + ChainChecks.findings(inspection.hops)
        if probeBeacons, !inspection.tracking.isEmpty, !Task.isCancelled {
            let beacons = SessionEnvironment.live(configuration)
            if let transport = beacons.beaconTransport {
                inspection.warnings += await BeaconProbe(transport: transport, now: LiveTools.wallTime(), seed: configuration.seed, timeout: configuration.beaconPolicy.timeout).findings(inspection.tracking)
            }
            await beacons.shutdown()
        }
        var lint = TagLint(inspection, policy: policy, catalogue: catalogue)
        lint.place(in: configuration.tag)
        return lint
    }

    /// The origin `lint` asks from: a web page's that is not the ad server's (`.invalid` names no real host).
    public static let defaultOrigin = "https://player.vplay.invalid"

    /// Gives each finding of the tag itself (hop 0) the line and column of its element, when the tag is a local file.
    mutating func place(in tag: String) {
        let prefix = "hop 0: "
        guard findings.contains(where: { $0.finding.path?.hasPrefix(prefix) == true }), !tag.contains("://"),
              let data = FileManager.default.contents(atPath: tag) else { return }
        for index in findings.indices {
            guard let path = findings[index].finding.path, path.hasPrefix(prefix) else { continue }
            findings[index].place = ElementLocator.locate(String(path.dropFirst(prefix.count)), in: data)
        }
    }
}
