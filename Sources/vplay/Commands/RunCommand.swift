import Primitives
import AdSession
import ArgumentParser
import BeaconSink
import Foundation
import PlayerEngine
import TrackingBeacons
import VAST

/// `vplay --vast TAG` (also `vplay run --vast TAG`): play one ad session and report it.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play a VAST ad: resolve wrappers, decode the chosen media on a clock, fire every tracking URL.",
        discussion: """
            Events fire at their exact playhead times: quartiles at 25/50/75/100 % of the media's duration, progress \
            offsets exactly. With --json each line on stdout is one JSON object: kind = resolved | event | beacon | \
            warning | error | ad (a pod's ad) | break (a VMAP \
            break) | reconciliation | expectations | summary (docs/reference/json.md).

            With --tracking-doc, a stitcher's client-side tracking document (MediaTailor's JSON) is played instead: \
            no media, a simulated stream clock, each beacon at its document time (docs/guides/ssai.md).

            With --interstitials, an HLS content playlist's interstitials are played as breaks on its content clock             (read, not decoded), each asset an ad through the HLS path, its SVTA2053 signalling as the ads' tracking             (docs/guides/ssai.md).

            \(ExitCode.documentation)
            """
    )


    @OptionGroup var tag: TagOptions

    @OptionGroup(title: "VMAP") var vmap: VMAPOptions

    @OptionGroup(title: "Server-side ad insertion") var stream: TrackedStreamOptions

    @OptionGroup(title: "Server-side ad insertion") var serverSide: ServerSideOptions

    @OptionGroup var network: NetworkOptions

    @OptionGroup var pods: PodOptions

    @OptionGroup var verification: VerificationOptions

    @OptionGroup var reports: ReportOptions

    @Flag(help: "One JSON object per line on stdout instead of text.")
    var json = false

    @Flag(help: "Expand and log every tracking URL; send nothing.")
    var dryRun = false

    @Option(help: ArgumentHelp("virtual (as fast as decoding allows, exact times; default) or realtime.", valueName: "mode"))
    var clock: ClockOption?

    @Option(parsing: .unconditional, help: ArgumentHelp("Real time scaled by N (implies --clock realtime); 2 plays a 10 s ad in 5 s; 0.001 to 1000.", valueName: "N"),
            transform: OptionValue.number(in: OptionRanges.speeds, else: "--speed must be from 0.001 to 1000"))
    var speed: Double?

    @OptionGroup var scripting: ScriptOptions

    @OptionGroup var rewards: RewardOptions

    @OptionGroup var rewardCallback: RewardCallbackOptions

    @Option(help: ArgumentHelp("pause/resume/mute/unmute beacons on every occurrence or only the first.", valueName: "every|first"))
    var repeatTracking: SessionConfiguration.RepeatTracking = .every

    @Option(help: ArgumentHelp("Whether a replay fires impression, start, quartiles... again.", valueName: "none|all"))
    var replayTracking: SessionConfiguration.ReplayTracking = .none

    @OptionGroup var macros: MacroOptions

    @Option(parsing: .unconditional, help: .withDefault("Decoder threads per stream; 0 = one per core.", 0, valueName: "threads"), transform: OptionValue.threads)
    var threads = 0

    @Option(help: ArgumentHelp("Fail the ad with VAST error 304 when its first frame does not show within this many seconds of the ad request (default: no limit).", valueName: "seconds"),
            transform: OptionValue.seconds(positive: true, else: "--display-deadline must be a positive number of seconds"))
    var displayDeadline: Duration?

    @OptionGroup var beacon: BeaconOptions<RunCommand>

    @OptionGroup var sink: SinkOptions

    @OptionGroup var quietOption: QuietOption

    @Option(help: ArgumentHelp("Write every beacon attempt to FILE as JSON Lines, as it happens.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--beacons"))
    var beacons: String?

    @Option(help: ArgumentHelp("Write the beacon attempts as a HAR 1.2 archive (Charles, browser dev tools).", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--har"))
    var har: String?

    @Option(help: ArgumentHelp("Write the Open Measurement session events a correct OM SDK integration would send (emulated: no verification script runs), as JSON Lines.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--omid-log"))
    var omidLog: String?

    @Option(help: ArgumentHelp("Write a run bundle: the tag documents as fetched, this command line (outputs left out), the seed and --now; `vplay --replay FILE` plays the same session again without the ad server.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--bundle"))
    var bundle: String?

    @Option(help: ArgumentHelp("Replay a run bundle (--bundle, or a studio run's bundle.json): its command line and its tag documents, with the outputs given here.", valueName: "file"),
            completion: .file())
    var replay: String?

    enum ClockOption: String, ExpressibleByArgument, CaseIterable { case virtual, realtime }

    func validate() throws {
        if speed != nil && clock == .virtual {
            throw ValidationError("--speed plays in real time; it does not go with --clock virtual")
        }
        try sink.validate(dryRun: dryRun)
        try network.validate(bandwidth: tag.bandwidth)
        if serverSide.ssai == .compare { throw ValidationError("--ssai compare: plays a fleet both ways (vplay fleet); run takes --ssai server") }
        if serverSide.ssai != nil {
            if tag.vmap != nil || tag.trackingDoc != nil || tag.interstitials != nil {
                throw ValidationError("--ssai server: plays a VAST tag (--vast), not --vmap, --tracking-doc or --interstitials, yet")
            }
            if speed != nil || clock == .realtime { throw ValidationError("--ssai server: runs on the virtual clock (the stitcher's beacons are stamped with their segment requests' times)") }
        }
        if tag.vmap != nil || tag.trackingDoc != nil || tag.interstitials != nil {
            if displayDeadline != nil {
                throw ValidationError("--display-deadline: limits a VAST tag's ad (--vast), not --vmap, --tracking-doc or --interstitials, yet")
            }
            if let step = scripting.steps.loadSteps.first {
                throw ValidationError("--script \(step.text): load steps time a VAST tag's loading (--vast), not --vmap, --tracking-doc or --interstitials, yet")
            }
        }
        try OptionValue.checkNoClash(
            outputs: outputs,
            inputs: tag.inputs + network.inputs + [("--replay", replay), ("--script-file", scripting.scriptInput?.path), ("--expect", reports.expectInput?.path)],
            inputFolders: tag.inputFolders)
    }

    /// Every output of the run, by option.
    var outputs: [(option: String, path: String?)] {
        reports.outputs + [("--beacons", beacons), ("--har", har), ("--omid-log", omidLog), ("--bundle", bundle)] + rewardCallback.outputs + tag.outputs
    }

    func sessionConfiguration() -> SessionConfiguration {
        var configuration = SessionConfiguration(tag: tag.vast)
        network.apply(to: &configuration)
        tag.apply(to: &configuration)
        pods.apply(to: &configuration)
        verification.apply(to: &configuration)
        configuration.dryRun = dryRun
        if let speed { configuration.clock = .realtime(speed: speed) } else if clock == .realtime { configuration.clock = .realtime(speed: 1) }
        macros.apply(to: &configuration)
        configuration.decoderThreads = threads
        beacon.apply(to: &configuration)
        configuration.script = scripting.steps
        rewards.apply(to: &configuration)
        rewardCallback.apply(to: &configuration)
        configuration.repeatTracking = repeatTracking
        sink.apply(to: &configuration)
        configuration.replayTracking = replayTracking
        configuration.displayDeadline = displayDeadline
        if bundle != nil { configuration.tagRecorder = TagRecorder() }
        configuration.serverSide = serverSide.insertion
        return configuration
    }

    /// The session's configuration, with a bundle's tag documents under `--replay`; under `--bundle`, the wall time
    /// the run would have read once at its start is fixed now, so the bundle (and its replay) has it.
    func replayableConfiguration() throws -> SessionConfiguration {
        var configuration = sessionConfiguration()
        if let replay { configuration.replayDocuments = try RunBundle.read(replay).documents }
        if bundle != nil, configuration.now == nil { configuration.now = Int64((LiveTools.wallTime().timeIntervalSince1970 * 1000).rounded()) }
        return configuration
    }

    func run() async throws {
        quietOption.apply()
        // When the run started and how long it took, in wall time, for the JUnit report.
        let started = LiveTools.wallTime(), wall = LiveTools.monotonicClock(), startedAt = wall.now
        let configuration = try replayableConfiguration()
        let keys = rewardCallback.keysOnce(seed: configuration.seed)
        // The session's id on every JSON record and beacon log line: its `[TRANSACTIONID]`.
        let sessionID = configuration.transactionID
        let outputs = try SessionOutputs(beaconsPath: beacons, harPath: har, userAgent: configuration.userAgent, title: tag.vast, session: sessionID)
        let speed: Double? = { if case let .realtime(speed) = configuration.clock { return speed } else { return nil } }()
        let console = SessionConsole(json: json, session: sessionID, realtimeSpeed: speed)
        for name in macros.unknownMacroNames {
            console.warn("--macro \(name): vplay fills [\(name)] itself or does not know it; the value is used only where the tag has [\(name)] and vplay has no value of its own")
        }
        let signals = SignalWatch()
        // The media file is known once the tag is resolved: an output that would replace it stops the session
        // before playback, and nothing is written.
        let clash = Locked<String?>(nil)
        let paths = self.outputs
        let vmap = self.vmap.playback, mode = tag.sessionMode
        let stream = tag.trackingDoc != nil ? self.stream.playback(self.vmap) : nil
        let session = Task {
            let observer: @Sendable (SessionRecord) async -> Void = { record in
                if case let .resolved(info) = record, let message = Self.mediaClash(info.media.location, outputs: paths) ?? keys.write() {
                    clash.withLock { $0 = message }
                    withUnsafeCurrentTask { $0?.cancel() }
                    return
                }
                guard clash.withLock({ $0 }) == nil else { return }
                outputs.record(record)
                await console.show(record)
            }
            if let stream { return await TrackedStreamRunner(configuration: configuration, playback: stream).run(observer: observer) }
            return await VMAPSessionRunner(configuration: configuration, playback: vmap, mode: mode).run(observer: observer)
        }
        signals.onFirst {
            session.cancel()
            Task { await console.stopStatus() }
        }
        let summary = await session.value
        if let message = clash.withLock({ $0 }) {
            outputs.discard()
            throw ValidationError(message)
        }
        let interrupted = signals.received != nil || summary.outcome == .interrupted
        var failures = outputs.finish(interrupted: interrupted).map(\.description)
        // No media was resolved (the tag failed): the keys file asked for is still written.
        if let failure = keys.write() { failures.append(failure) }
        let transcript = outputs.sessionTranscript
        let expectations = reports.expect
        let results = expectations.map { $0.check(transcript, summary: summary) }
        let code = signals.received.map { 128 + $0 } ?? exitCode(for: summary, expectations: expectations, results: results)
        failures += writeReports(transcript: transcript, summary: summary, results: results, exitCode: code, interrupted: interrupted,
                                 configuration: configuration, session: sessionID, started: started, seconds: startedAt.duration(to: wall.now).seconds)
        await console.finish(summary, exitCode: code, expectations: results)
        if let error = summary.error {
            StandardStreams.fail("VAST \(error.code): \(error.message)")
        } else if let error = summary.tracking?.documentError {
            StandardStreams.fail("tracking document: \(error.message)")
        } else if let error = summary.vmap?.documentError {
            StandardStreams.fail("VMAP \(error.code.rawValue): \(error.message)")
        } else if let failed = summary.vmap?.breaks.first(where: { $0.outcome == .failed }) {
            StandardStreams.fail("VMAP break \(failed.number) (\(failed.offsetText)) played no ad" + (failed.errors.first.map { ": \($0.code) \($0.message)" } ?? ""))
        }
        try CommandOutputs.exit(code, failures: failures, signalled: signals.received != nil,
                                reason: Self.reason(code, summary: summary, results: results))
    }

    /// Writes the reports asked for (expectations recorded, JUnit, timeline, OMID log, report), each file on its own:
    /// one that cannot be written does not keep the others (or the summary) from being written. What failed, in words.
    func writeReports(transcript: SessionTranscript, summary: SessionSummary, results: [ExpectationResult]?, exitCode: Int32, interrupted: Bool,
                      configuration: SessionConfiguration, session sessionID: String, started: Date, seconds: Double) -> [String] {
        var failures: [String] = []
        func write(_ option: String, _ path: String?, _ content: () throws -> String) {
            guard let path else { return }
            do { try OutputFile.write(try content(), to: path, option: option) } catch { failures.append("\(error)") }
        }
        if interrupted, let path = reports.recordExpectations {
            failures.append("--record-expectations \(path): not written, the run was interrupted (a golden file must come from a whole run)")
        } else {
            write("--record-expectations", reports.recordExpectations) {
                let golden = SessionExpectations(recording: transcript, summary: summary)
                return try ReportOptions.encode(golden, yaml: reports.recordExpectations!.hasSuffix(".yaml") || reports.recordExpectations!.hasSuffix(".yml"))
            }
        }
        write("--junit", reports.junit) {
            JUnitReport.xml(JUnitReport.Suite(
                name: tag.vast, command: "run", subject: tag.vast,
                cases: JUnitReport.sessionCases(summary: summary, transcript: transcript, results: results),
                started: started, hostname: ProcessInfo.processInfo.hostName, seconds: seconds,
                properties: [("tag", tag.vast), ("seed", "\(configuration.seed)"), ("dryRun", "\(configuration.dryRun)"),
                             ("sessionClock", String(format: "%.3f", summary.clock.seconds)), ("vplay", VPlayVersion.current)]))
        }
        write("--timeline", reports.timeline) { TimelineSVG.render(transcript, summary: summary, title: "vplay: \(tag.vast)", exitCode: exitCode) }
        write("--omid-log", omidLog) {
            OMIDLog.lines(transcript, breakPosition: configuration.breakRequest.position).map { $0.text + "\n" }.joined()
        }
        write("--bundle", bundle) {
            let arguments = RunBundle.kept(RunBundle.commandLine.withLock { $0 }, now: configuration.now ?? 0)
            return try RunBundle(vplay: VPlayVersion.current, arguments: arguments, seed: configuration.seed,
                                 now: ISO8601Time.text(milliseconds: configuration.now ?? 0), documents: configuration.tagRecorder?.documents(timedBy: summary.hops) ?? []).text()
        }
        write("--report", reports.report) {
            SessionReport.json(tag: tag.vast, transcript: transcript, summary: summary, exitCode: exitCode, expectations: results, configuration: configuration, session: sessionID).text + "\n"
        }
        return failures
    }

    /// The usage error when the media at `location` (a local file) is also a file the run writes.
    static func mediaClash(_ location: String, outputs: [(option: String, path: String?)]) -> String? {
        let path = location.hasPrefix("file:") ? (URL(string: location)?.path ?? location) : location
        if let url = URL(string: path), let scheme = url.scheme, scheme.count > 1 { return nil }  // remote media
        let media = FileIdentity(path)
        for case let (option, output?) in outputs where !OutputFile.writesInPlace(output) && media.isSame(as: FileIdentity(output)) {
            return "\(option) \(output): that is the media file this ad plays (\(path)); an output must not replace an input"
        }
        return nil
    }

    /// With expectations: 1 when one fails; when all hold and they expect an ad or media error (a non-zero
    /// `errorCode`, which then matched), 0: an expected error is a pass. Otherwise the session's own code, so a
    /// golden file (`errorCode: 0`) never hides beacon failures from `--fail-on-beacon-errors`.
    /// Why the run ends with `code`, in one line for stderr.
    static func reason(_ code: Int32, summary: SessionSummary, results: [ExpectationResult]?) -> String? {
        switch code {
        case ExitCode.expectationFailed.rawValue:
            let failed = (results ?? []).filter { !$0.passed }
            return "\(failed.count) of \((results ?? []).count) expectations failed" + (failed.first.map { ", first: \($0.name)" } ?? "")
        case ExitCode.beaconFailures.rawValue:
            let missing = summary.reconciliation.map { $0.isComplete ? "" : ", or not received by the sink" } ?? ""
            return "\(summary.beaconsFailed) beacons failed\(missing) (--fail-on-beacon-errors)"
        default:
            return nil
        }
    }

    func exitCode(for summary: SessionSummary, expectations: SessionExpectations?, results: [ExpectationResult]?) -> Int32 {
        if let results {
            if results.contains(where: { !$0.passed }) { return ExitCode.expectationFailed.rawValue }
            if let expected = expectations?.errorCode, expected != 0 { return 0 }
        }
        return exitCode(for: summary)
    }

    func exitCode(for summary: SessionSummary) -> Int32 {
        switch summary.outcome {
        case .adError: return ExitCode.adError.rawValue
        case .mediaError: return ExitCode.mediaError.rawValue
        case .usageError: return ExitCode.usage.rawValue
        case .interrupted: return 130
        case .completed:
            let lost = summary.beaconsFailed > 0 || !(summary.reconciliation?.isComplete ?? true)
            return beacon.failOnBeaconErrors && lost ? ExitCode.beaconFailures.rawValue : 0
        }
    }
}

extension RunCommand: BeaconDefaults {
    static let beaconConcurrency = 32
    static let concurrencyScope = ""
}

extension SessionConfiguration.RepeatTracking: ExpressibleByArgument {}
extension SessionConfiguration.ReplayTracking: ExpressibleByArgument {}
