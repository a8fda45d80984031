import AdSession
import ArgumentParser
import BeaconSink
import Foundation
import Primitives
import TrackingBeacons

/// `vplay fleet --vast TAG --sessions N --mix …`: thousands of simulated viewers of one ad, each with its own virtual
/// clock and a scenario drawn from the mix, every beacon over real HTTP; expected against sent against received.
struct FleetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Play N viewers of one ad from a seeded scenario mix; count every beacon expected, sent and received.",
        discussion: """
            The tag is resolved and its media opened, decoded and verified once; every session then replays that \
            frame timeline on its own virtual clock (--decode-each decodes in every session instead). Scenarios \
            (uniform draws, whole ms, D = the media's duration): complete; background at 5-95 % of D for 1-30 s; \
            pause at 5-95 % for 0.5-10 s; click at 5-95 % with the click-through open 1-10 s; skip between the skip \
            offset and the end (refused on a non-skippable ad); close at 2-98 %. Session i's scenario and seeds \
            depend only on --seed and i, so --shard K/N runs exactly the sessions an unsharded run gives those \
            indices, and `vplay merge` adds shard reports up to the unsharded one. A VMAP document (--vmap, or \
            given to --vast) runs one fleet a break, of the viewers --watch-mix says reach it, each session firing \
            the break's breakStart and breakEnd; with --shard, each break's fleet runs the shard's share of its \
            reach, and `vplay merge` adds the shards up break by break (docs/guides/vmap.md).

            Exit codes: 0 every beacon sent as the scenarios imply (and, with a sink, received as sent; with \
            --threshold, every threshold held instead); 1 a count differs; 2 usage error; 3 ad error; 4 media error; \
            5 beacon delivery failures (with --fail-on-beacon-errors); 99 a --threshold failed, or --abort-on-fail \
            stopped the run at one (k6's code).
            """
    )

    @OptionGroup var tag: TagOptions

    @OptionGroup var pods: PodOptions

    @OptionGroup(title: "VMAP") var content: VMAPOptions

    @OptionGroup(title: "Server-side ad insertion") var serverSide: ServerSideOptions

    @Option(help: ArgumentHelp("VMAP: how far the viewers watch the content, as weights: end (to contentComplete, post-roll included), N% of it, or N seconds (default end:1, everyone to the end).", valueName: "POINT:WEIGHT,..."),
            transform: Self.watchMix)
    var watchMix: WatchMix?

    @Sendable static func watchMix(_ text: String) throws -> WatchMix {
        do { return try WatchMix(parsing: text) } catch { throw ValidationError(error.description) }
    }

    @OptionGroup var verification: VerificationOptions

    @OptionGroup var rewardCallback: RewardCallbackOptions

    @Option(parsing: .unconditional, help: .withDefault("How many viewers (sessions) in the whole fleet.", 1000, valueName: "sessions"),
            transform: OptionValue.integer(in: 1...FleetConfiguration.maxSessions, else: "--sessions must be from 1 to \(FleetConfiguration.maxSessions)"))
    var sessions = 1000

    @Option(parsing: .unconditional, help: .withDefault("Sessions played at once.", 16, valueName: "concurrency"),
            transform: OptionValue.integer(in: 1..., else: "--concurrency must be 1 or more"))
    var concurrency = 16

    @Option(help: .withDefault("What the viewers do, as weights: complete, background, pause, click, skip, close, terminate.", Self.defaultMix, valueName: "KIND:WEIGHT,..."),
            transform: Self.mix)
    var mix = Self.defaultMix

    @Option(help: ArgumentHelp("Put the viewers on simulated networks, as weights: wifi, 4g, fast3g, slow3g, offline (e.g. wifi:60,4g:30,fast3g:10).", valueName: "PROFILE:WEIGHT,..."),
            transform: Self.networkMix)
    var networkMix: NetworkMix?

    @Sendable static func networkMix(_ text: String) throws -> NetworkMix {
        do { return try NetworkMix(parsing: text) } catch { throw ValidationError(error.description) }
    }

    @OptionGroup var macros: MacroOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many beacons per second over the whole fleet (0.001 to 10,000,000): with --shard K/N each shard sends 1/N of it.", valueName: "per-second"),
            transform: OptionValue.number(in: OptionRanges.rates, else: "--rate must be from 0.001 to 10000000 beacons per second"))
    var rate: Double?

    @Option(help: ArgumentHelp("Run only shard K of N (sessions i with i % N == K), 0-based.", valueName: "K/N"), transform: Self.shard)
    var shard: FleetShard?

    @Flag(help: "Decode the media in every session instead of replaying the one verified decode.")
    var decodeEach = false

    @OptionGroup var sink: SinkOptions

    @OptionGroup(title: "Live metrics") var liveMetrics: MetricsOptions

    @OptionGroup var quietOption: QuietOption

    @Flag(help: "Plan and count every beacon; send nothing.")
    var dryRun = false

    @OptionGroup var beacon: BeaconOptions<FleetCommand>

    @Option(parsing: .unconditional, help: .withDefault("HTTP/1.1 pipelining: up to N plain-HTTP beacon requests on one keep-alive connection before their answers, as load tools can (1 to \(OptionRanges.maxPipeline)); 1 sends one at a time, as devices do.", 1, valueName: "N"),
            transform: OptionValue.integer(in: 1...OptionRanges.maxPipeline, else: "--pipeline must be 1 to \(OptionRanges.maxPipeline)"))
    var pipeline = 1

    @Option(help: ArgumentHelp("Write the fleet's progress to FILE as it runs, one JSON line about five times a second: sessions done, beacons sent and answered, seconds, and impressions, starts, quartiles and completes so far (the studio draws its live view from it).", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--progress"))
    var progress: String?

    @Option(help: ArgumentHelp("With --sink or --sink-all: stream every hit at the sink to FILE as it arrives, one JSON line each (appended; the fleet's sink keeps no hit in memory, it reconciles each as it arrives).", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--sink-log"))
    var sinkLog: String?

    @Option(help: ArgumentHelp("Write the fleet report (JSON) to FILE; `vplay merge` adds shard reports up.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--report"))
    var report: String?

    @Option(help: ArgumentHelp("Write the fleet report as one self-contained HTML page to FILE (reach by quartile, beacons by status, latency over the run, thresholds; readable offline).", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--html"))
    var html: String?

    @Option(help: ArgumentHelp("Write every session, playback event, beacon attempt and hit at the sink to an SQLite database at FILE as the fleet runs (docs/reference/results.md); `vplay merge` merges shards' files and regenerates the report from them.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--results"))
    var results: String?

    @Flag(help: "Print the report as JSON on stdout instead of the text summary.")
    var json = false

    @Option(help: ArgumentHelp("Write JUnit XML: a test case per tracking URL (sent as expected; received as sent) and per fleet check.", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--junit"))
    var junit: String?

    @Option(name: .customLong("threshold"), help: ArgumentHelp("Fail the run (exit 99) unless this holds on the report: [SCOPE:]METRIC OP VALUE, e.g. 'received/sent>=0.999', 'event=firstQuartile:received/expected>=0.99', 'url=/midpoint:delivered/sent==1', 'network=3g:complete/sessions>=0.8', 'ad=2:sent/expected==1', 'latency.p99<250ms'; repeatable, each a JUnit case (docs/guides/fleets.md).", valueName: "expr"),
            transform: Self.threshold)
    var thresholds: [FleetThreshold] = []

    @Flag(help: "Stop the run at the first --threshold breached for good (a count or latency.max over its bound; ratios and percentiles are judged at the end), within a second; exit 99.")
    var abortOnFail = false

    @Sendable static func threshold(_ text: String) throws -> FleetThreshold {
        do { return try FleetThreshold(parsing: text) } catch { throw ValidationError("--threshold \(error.message)") }
    }

    /// What the viewers do when `--mix` is not given: most watch to the end; some send the app to the background,
    /// skip or close.
    static let defaultMix: FleetMix = {
        do { return try FleetMix(parsing: "complete:70,background:15,skip:10,close:5") } catch { fatalError("the default mix: \(error)") }
    }()

    @Sendable static func mix(_ text: String) throws -> FleetMix {
        do { return try FleetMix(parsing: text) } catch { throw ValidationError(error.description) }
    }

    @Sendable static func shard(_ text: String) throws -> FleetShard {
        guard let shard = FleetShard(parsing: text) else { throw ValidationError("--shard must be K/N with 0 ≤ K < N, e.g. 0/4") }
        return shard
    }

    /// The files this command writes, with their options (checked against every input before anything is written).
    var fleetOutputs: [(String, String?)] {
        [("--report", report), ("--junit", junit), ("--progress", progress), ("--sink-log", sinkLog), ("--results", results), ("--html", html)]
    }

    func validate() throws {
        try tag.refuseTrackingDocument("fleet")
        if sinkLog != nil, sink.scope == nil { throw ValidationError("--sink-log logs the embedded sink's hits: add --sink or --sink-all") }
        if content.contentScript != nil { throw ValidationError("--content-script: a fleet's viewers watch the content as --watch-mix says") }
        if serverSide.ssai == .compare, liveMetrics.metrics != nil { throw ValidationError("--metrics: --ssai compare runs two fleets; give it to a fleet of one mode") }
        if results != nil, serverSide.ssai == .compare || tag.vmap != nil {
            throw ValidationError("--results: a fleet of one VAST tag writes its results (not --vmap, not --ssai compare, yet)")
        }
        if serverSide.ssai == .compare, !thresholds.isEmpty { throw ValidationError("--threshold: --ssai compare judges the two modes against each other; give it to a fleet of one mode") }
        try validateAbortOnFail()
        if serverSide.ssai != nil, tag.vmap != nil { throw ValidationError("--ssai: a fleet plays a VAST tag server-side (--vast), not --vmap, yet") }
        try sink.validate(dryRun: dryRun)
        if tag.bandwidth == .auto {
            throw ValidationError("--bandwidth auto chooses by a simulated network's rate; fleet does not simulate networks yet (run and inspect do: --network)")
        }
        try OptionValue.checkNoClash(outputs: fleetOutputs + rewardCallback.outputs + tag.outputs, inputs: tag.inputs, inputFolders: tag.inputFolders)
    }

    func fleetConfiguration() -> FleetConfiguration {
        var session = SessionConfiguration(tag: tag.vast)
        tag.apply(to: &session)
        pods.apply(to: &session)
        verification.apply(to: &session)
        rewardCallback.apply(to: &session)
        session.dryRun = dryRun
        macros.apply(to: &session)
        beacon.apply(to: &session)
        session.beaconPolicy.pipelineDepth = pipeline
        sink.apply(to: &session)
        session.sinkLog = sinkLog
        // One decoder thread: a fleet decodes once, and --decode-each runs many decodes side by side.
        session.decoderThreads = 1
        var configuration = FleetConfiguration(session: session, sessions: sessions, mix: mix)
        configuration.concurrency = concurrency
        configuration.rate = rate
        configuration.shard = shard ?? .whole
        configuration.decodeEach = decodeEach
        configuration.networkMix = networkMix
        if abortOnFail { configuration.abortOn = thresholds }
        if serverSide.ssai == .server { configuration.session.serverSide = serverSide.insertion }
        return configuration
    }

    func run() async throws {
        quietOption.apply()
        if serverSide.ssai == .compare {
            try await runComparison()
            return
        }
        // When the fleet started and how long it took, in wall time, for the JUnit report.
        let started = LiveTools.wallTime(), wall = LiveTools.monotonicClock(), startedAt = wall.now
        var configuration = fleetConfiguration()
        let board = liveMetrics.metrics.map { _ in FleetMetricsBoard(version: VPlayVersion.current, shard: shard.map(\.description)) }
        configuration.metrics = board
        let metricsServer = try await liveMetrics.start(board)
        do { configuration.results = try results.map { try FleetResults(path: $0) } } catch { throw ValidationError("--results \(error)") }
        let keys = rewardCallback.keysOnce(seed: configuration.session.seed)
        let bar = FleetProgressBar()
        let signals = SignalWatch()
        // The media file is known once the tag is resolved: an output that would replace it stops the fleet before
        // any session plays (as `run` does).
        let outputs = fleetOutputs + tag.outputs + rewardCallback.outputs
        let progressLog = try progress.map { path in try FleetProgressLog(path: path) }
        let mode: VMAPSessionRunner.Mode = tag.vmap != nil ? .vmap : .detect
        let playback = content.playback, watchMix = self.watchMix ?? .toTheEnd
        let fleet = Task {
            await VMAPFleetRunner(configuration: configuration, playback: playback, watchMix: watchMix, mode: mode)
                .run(onProgress: { bar.draw($0); progressLog?.write($0) }, admitMedia: { RunCommand.mediaClash($0, outputs: outputs) ?? keys.write() })
        }
        signals.onFirst { fleet.cancel() }
        let outcome = await fleet.value
        bar.clear()
        progressLog?.close()
        if let board { await liveMetrics.finish(board, server: metricsServer, signalled: signals.received != nil) }
        let results = configuration.results
        let result: Result<FleetReport, FleetFailure>
        switch outcome {
        case let .vmap(report):
            // A VAST-or-VMAP tag that was VMAP: its break fleets wrote no results.
            if let results {
                results.discard()
                StandardStreams.warn("--results: \(tag.vast) is a VMAP document; a VMAP fleet writes no results yet")
            }
            try finish(report, keys: keys, signal: signals.received, started: started, seconds: startedAt.duration(to: wall.now).seconds)
            return
        case let .vast(value): result = value
        }
        switch result {
        case let .failure(failure) where failure.error.kind == .usage:
            // The command line asked for what cannot be: an output over the media, a --media-file the ad lacks.
            results?.discard()
            throw ValidationError(failure.error.message)
        case let .failure(failure) where signals.received != nil:
            // Stopped while the ad was being prepared: what the sessions did, if any ran, is still written.
            if let result = failure.report { _ = try writeOutputs(result, results: results, started: started, seconds: startedAt.duration(to: wall.now).seconds) } else { results?.discard() }
            throw ExitCode(128 + signals.received!)
        case let .failure(failure):
            for warning in failure.warnings { StandardStreams.warn(warning) }
            if let keyFailure = keys.write() { StandardStreams.warn(keyFailure) }
            // Every session fired the ad's Error URLs all the same: the report and JUnit say so, with the error.
            if failure.report == nil { results?.discard() }
            let failures = try failure.report.map { try writeOutputs($0, results: results, started: started, seconds: startedAt.duration(to: wall.now).seconds) } ?? []
            for failure in failures { StandardStreams.warn(failure) }
            StandardStreams.fail("the fleet cannot play: VAST \(failure.error.code): \(failure.error.message)")
            try CommandOutputs.exit(failure.error.kind == .ad ? ExitCode.adError.rawValue : ExitCode.mediaError.rawValue)
        case var .success(result):
            if !thresholds.isEmpty { result.thresholds = thresholds.map { FleetReport.Threshold($0.evaluate(result)) } }
            let data = try result.json()
            var failures = try writeOutputs(result, results: results, started: started, seconds: startedAt.duration(to: wall.now).seconds)
            if let keyFailure = keys.write() { failures.append(keyFailure) }
            if json { StandardStreams.print(String(decoding: data, as: UTF8.self)) } else { StandardStreams.say(FleetText.summary(result)) }
            let (code, reason) = Self.exitCode(result, signal: signals.received, failOnBeaconErrors: beacon.failOnBeaconErrors)
            try CommandOutputs.exit(code, failures: failures, signalled: signals.received != nil, reason: reason)
        }
    }
}

extension FleetCommand {
    /// `--abort-on-fail` needs a threshold it can judge while the fleet runs.
    func validateAbortOnFail() throws {
        guard abortOnFail else { return }
        guard !thresholds.isEmpty else { throw ValidationError("--abort-on-fail stops the run at a --threshold's breach: give one") }
        guard thresholds.contains(where: \.judgedWhileRunning) else {
            throw ValidationError("--abort-on-fail: no --threshold can be breached for good before the end (a count or latency.max under a bound can, as 'failures<10' or 'event=error:sent==0'; ratios and percentiles are judged at the end)")
        }
    }

    /// The run's exit code and why: a signal's; 1 when the oracle's prediction or the device fields failed, or the sink
    /// missed a beacon (unless thresholds judge the arrivals instead); 99 when a threshold failed; 5 for beacon
    /// failures with `--fail-on-beacon-errors`.
    static func exitCode(_ result: FleetReport, signal: Int32?, failOnBeaconErrors: Bool) -> (Int32, String) {
        if let signal { return (128 + signal, "") }
        if let aborted = result.aborted {
            return (ExitCode.thresholdFailed.rawValue, "threshold failed, run aborted at \(String(format: "%.1f", aborted.seconds)) s: \(aborted.message)")
        }
        let checks = result.checks
        if !checks.sentAsExpected { return (ExitCode.expectationFailed.rawValue, "the fleet did not send the beacons its oracle expected") }
        if checks.deviceFields == false { return (ExitCode.expectationFailed.rawValue, "a hit at the sink lacked the device's X-Device-* fields") }
        if let thresholds = result.thresholds {
            let failed = thresholds.filter { !$0.passed }
            if !failed.isEmpty { return (ExitCode.thresholdFailed.rawValue, "threshold failed: " + failed.map(\.message).joined(separator: "; ")) }
        } else if checks.receivedAsSent == false {
            return (ExitCode.expectationFailed.rawValue, "the sink did not receive every beacon sent")
        }
        if failOnBeaconErrors, !result.population.failures.isEmpty {
            return (ExitCode.beaconFailures.rawValue, "\(result.population.failures.count) kinds of beacon failure (--fail-on-beacon-errors)")
        }
        return (0, "")
    }

    /// Writes `result` to `--report`, `--junit` and `--results` (when given); returns what could not be written.
    func writeOutputs(_ result: FleetReport, results: FleetResults?, started: Date, seconds: Double) throws -> [String] {
        var failures = FleetReport.write(try result.json(), to: report)
        if let failure = results?.finish(result) { failures.append(failure) }
        if let html { do { try OutputFile.write(FleetHTML.page(result), to: html, option: "--html") } catch { failures.append("\(error)") } }
        if let junit {
            let suite = JUnitReport.Suite(
                name: "fleet \(tag.vast)", command: "fleet", subject: tag.vast, cases: JUnitReport.fleetCases(result), started: started,
                hostname: ProcessInfo.processInfo.hostName, seconds: seconds,
                properties: [("tag", tag.vast), ("sessions", "\(result.fleet.sessions)"), ("seed", "\(result.fleet.seed)"), ("mix", result.fleet.mix),
                             ("shards", result.fleet.shards.map(String.init).joined(separator: ",") + " of \(result.fleet.shardCount)"),
                             ("dryRun", "\(result.fleet.dryRun)"), ("vplay", VPlayVersion.current)])
            do { try OutputFile.write(JUnitReport.xml(suite), to: junit, option: "--junit") } catch { failures.append("\(error)") }
        }
        return failures
    }
}

extension FleetCommand: BeaconDefaults {
    static let beaconConcurrency = 64
    static let concurrencyScope = " over the fleet"
}

extension FleetReport {
    /// Writes the report's JSON to `path` (nothing when nil); returns what failed.
    static func write(_ data: Data, to path: String?) -> [String] {
        guard let path else { return [] }
        do { try OutputFile.write(String(decoding: data, as: UTF8.self) + "\n", to: path, option: "--report") } catch { return [error.description] }
        return []
    }
}
