import AdSession
import ArgumentParser
import Findings
import Foundation
import Networking
import Primitives
import VAST

/// `vplay lint TAG…`: each tag resolved, its media chosen and opened (nothing played), and every finding reported
/// with its rule's ID under the run's severities (the config file, then `--rule`). Exit 0 when no finding is an
/// error, 1 when one is, 2 for usage or I/O.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check tags against vplay's rules (vplay rules lists them): resolve, choose and open the media, report each finding.",
        discussion: ExitCode.lintDocumentation
    )

    /// An output form.
    enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
        case text, ndjson, junit, sarif
    }

    @Argument(help: ArgumentHelp("Tags: files, http(s) URLs, or folders (every .xml file in them).", valueName: "tag"), completion: .file())
    var tags: [String] = []

    @Option(name: .customLong("rule"), help: ArgumentHelp("Set a rule's severity: ID=error|warning|info|off (ID may end in * for every rule it begins); repeatable, after the config file.", valueName: "ID=LEVEL"))
    var rules: [String] = []

    @Option(help: ArgumentHelp("The config file ([rules] table of ID = \"LEVEL\"; default: .vplay-lint.toml in the working directory, when there is one).", valueName: "file"),
            completion: .file())
    var config: String?

    @Option(help: ArgumentHelp("Output: text, ndjson (one finding a line), junit (one case per rule), sarif (SARIF 2.1.0).", valueName: "format"))
    var format: Format = .text

    @Option(help: ArgumentHelp("Write the output to FILE instead of stdout.", valueName: "file"), completion: .file(),
            transform: OptionValue.writableFile("--output"))
    var output: String?

    @Flag(help: "Do not open the media (no duration, container or creative checks).")
    var noMedia = false

    @Flag(help: "The tags are OpenRTB bid responses (a folder's .json files): each winning bid's markup is linted, with the bid's own findings (VPLAY-bid-*); --probe-beacons then requests its nurl and burl too.")
    var bid = false

    @Flag(help: "Open the media but do not decode it (no creative QA: loudness, leaders, scan, audio format).")
    var noCreative = false

    @Option(help: ArgumentHelp("Creative QA's loudness target: atsc (-24 LKFS +-2, ATSC A/85), ebu (-23 LUFS +-1, EBU R128) or LUFS+-LU written --loudness=-16+-1.", valueName: "target"))
    var loudness = "atsc"

    @Option(help: .withDefault("Creative QA's true-peak ceiling, dBTP (IAB ad format guidelines).", -6.0, valueName: "dBTP"),
            transform: OptionValue.number(in: -60...0, else: "--max-true-peak must be from -60 to 0 dBTP (write --max-true-peak=-3)"))
    var maxTruePeak = -6.0

    @Option(help: ArgumentHelp("Read URLs under PREFIX (tags and media) from the local DIR; repeatable.", valueName: "PREFIX=DIR"),
            transform: TagOptions.mapping)
    var map: [URLMapping] = []

    @Option(help: ArgumentHelp("Relative URLs in tag files resolve against this folder instead of each file's own (a tag saved away from its media).", valueName: "dir"),
            completion: .directory)
    var base: String?

    @Flag(help: "Refuse tags, wrappers, media and beacons whose host is or resolves to a private, link-local or unique-local address; loopback stays allowed.")
    var denyPrivateNetworks = false

    @Flag(help: "Refuse loopback hosts (127.0.0.0/8, ::1, localhost) and the unspecified address (0.0.0.0, ::).")
    var denyLoopback = false

    @Flag(help: "Request each tracking URL once (macros filled; Error URLs left out) and report its answer: not 2xx or 3xx, an https URL redirected to http, slower than 1 s. The trackers count these requests.")
    var probeBeacons = false

    @Option(help: ArgumentHelp("The web page origin each tag request carries, as a web player's browser sends it; each answer's Access-Control-Allow-Origin must allow it (default: https://player.vplay.invalid).", valueName: "origin"))
    var origin: String?

    @Option(help: .withDefault("Tags linted at once.", 4, valueName: "N"), transform: OptionValue.integer(in: 1...64, else: "--jobs must be 1 to 64"))
    var jobs = 4

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        guard !tags.isEmpty else { throw ValidationError("name at least one tag to lint (a file, an http(s) URL or a folder)") }
        _ = try policy()
        _ = try targets()
        if let origin, !Self.isOrigin(origin) {
            throw ValidationError("--origin \(origin): give a web origin, scheme://host[:port], such as https://player.example")
        }
        try OptionValue.checkNoClash(outputs: [("--output", output)], inputs: tags.map { ("tag", $0) } + [("--config", config)])
    }

    /// The run's severities: the catalogue's, then the config file's, then `--rule`'s.
    func policy() throws -> RulePolicy { try Self.policy(config: config, rules: rules) }

    /// The catalogue's severities, then the config file's (`config`, else `.vplay-lint.toml` in the working
    /// directory when there is one), then `rules`'.
    static func policy(config: String?, rules: [String]) throws -> RulePolicy {
        var policy = RulePolicy()
        let file = config ?? (FileManager.default.fileExists(atPath: RuleConfig.defaultName) ? RuleConfig.defaultName : nil)
        do {
            if let file {
                guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { throw ValidationError("--config \(file): cannot be read") }
                try RuleConfig.apply(text, file: file, to: &policy, catalogue: .standard)
            }
            for setting in rules { try policy.apply(setting, in: .standard) }
        } catch let error as RulePolicyError {
            throw ValidationError(error.description)
        }
        return policy
    }

    /// Whether `text` is a serialized web origin: http or https, a host, an optional port, nothing else.
    static func isOrigin(_ text: String) -> Bool {
        // The URL check every request goes through, then nothing but an origin: no path, query or credentials.
        guard AddressPolicy.Origin(text) != nil, let url = URL(string: text) else { return false }
        return url.path.isEmpty && url.query == nil && url.fragment == nil && url.user == nil
    }

    /// Creative QA's targets, or nil when the media is not decoded.
    func targets() throws -> CreativeTargets? {
        guard !noMedia, !noCreative else { return nil }
        do { return try CreativeTargets.loudness(loudness, maxTruePeak: maxTruePeak) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        quietOption.apply()
        let policy = try policy()
        var measured = try targets()
        // A clip many tags play is decoded once in this call.
        measured?.cache = CreativeCache()
        let creative = measured
        let started = LiveTools.wallTime()
        let clock = LiveTools.monotonicClock(), start = clock.now
        let expanded = try Self.expand(tags, suffix: bid ? ".json" : ".xml")
        // Ctrl-C or SIGTERM: tags not begun are left, the one under way dropped; what was linted is written.
        let signals = SignalWatch()
        let (origin, map, probeBeacons, noMedia, jobs, bids) = (origin, map, probeBeacons, noMedia, jobs, bid)
        let linting = Task {
            await Self.lint(expanded, openMedia: !noMedia, creative: creative, origin: origin, map: map, base: base,
                            addressPolicy: AddressPolicy(denyPrivate: denyPrivateNetworks, denyLoopback: denyLoopback),
                            probeBeacons: probeBeacons, policy: policy, jobs: jobs, bids: bids)
        }
        signals.onFirst { linting.cancel() }
        let lints = await linting.value
        let seconds = (clock.now - start).microsecondSeconds
        let ran = RuleCatalogue.standard.rules.filter { policy.severity(of: $0) != nil }
        let text: String
        switch format {
        case .text: text = LintRendering.text(lints) + "\n"
        case .ndjson: text = LintRendering.ndjson(lints)
        case .junit: text = LintRendering.junit(lints, rules: ran, started: started, seconds: seconds, hostname: ProcessInfo.processInfo.hostName) + "\n"
        case .sarif: text = SARIFReport.json(lints, rules: ran).text + "\n"
        }
        var failures: [String] = []
        if let output {
            do { try OutputFile.write(text, to: output, option: "--output") } catch { failures.append(error.description) }
        } else if format == .text {
            StandardStreams.say(String(text.dropLast()))
        } else {
            StandardStreams.print(String(text.dropLast()))
        }
        if let signal = signals.received {
            for failure in failures { StandardStreams.warn(failure) }
            StandardStreams.fail("interrupted: \(lints.count) of \(expanded.count) tag\(expanded.count == 1 ? "" : "s") linted")
            throw ExitCode(128 + signal)
        }
        let failed = lints.filter(\.failed).count
        try CommandOutputs.exit(failed == 0 ? 0 : ExitCode.expectationFailed.rawValue, failures: failures,
                                reason: "\(failed) of \(lints.count) tag\(lints.count == 1 ? "" : "s") with an error-severity finding")
    }

    /// The tags to lint: URLs and files as given, a folder's `.xml` files (`.json` bid responses under `--bid`) in name
    /// order. A folder with none is a usage error.
    static func expand(_ tags: [String], suffix: String = ".xml") throws -> [String] {
        try tags.flatMap { tag -> [String] in
            var isFolder: ObjCBool = false
            guard !tag.contains("://"), FileManager.default.fileExists(atPath: tag, isDirectory: &isFolder), isFolder.boolValue else { return [tag] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: tag)) ?? []
            let files = names.filter { $0.lowercased().hasSuffix(suffix) }.sorted().map { (tag as NSString).appendingPathComponent($0) }
            guard !files.isEmpty else { throw ValidationError("\(tag): a folder with no \(suffix) file to lint") }
            return files
        }
    }

    /// Lints `tags`, `jobs` at a time; the results in the tags' order. Cancelled (a signal), no further tag is begun
    /// and those under way are left out: the result is the tags linted to their end.
    static func lint(_ tags: [String], openMedia: Bool, creative: CreativeTargets?, origin: String?, map: [URLMapping], base: String? = nil,
                     addressPolicy: AddressPolicy = .open, probeBeacons: Bool, policy: RulePolicy, jobs: Int, bids: Bool = false) async -> [TagLint] {
        await withTaskGroup(of: (Int, TagLint?).self) { group in
            var results = [TagLint?](repeating: nil, count: tags.count)
            var next = 0
            func add() {
                let index = next, tag = tags[index]
                next += 1
                var configuration = SessionConfiguration(tag: tag)
                configuration.tagOrigin = origin
                configuration.mappings = map
                configuration.tagBase = base
                configuration.addressPolicy = addressPolicy
                if bids { configuration.bid = BidSource(location: tag) }
                group.addTask { [configuration] in
                    let lint = await TagLint.lint(configuration, openMedia: openMedia, creative: creative, probeBeacons: probeBeacons, policy: policy)
                    return (index, Task.isCancelled ? nil : lint)
                }
            }
            while next < min(jobs, tags.count) { add() }
            for await (index, lint) in group {
                results[index] = lint
                if next < tags.count, !Task.isCancelled { add() }
            }
            return results.compactMap { $0 }
        }
    }
}
