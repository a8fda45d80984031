import AdSession
import Testing
@testable import vplay

/// `fleet`'s own options (`--sessions`, `--concurrency`, `--mix`, `--rate`, `--shard`, `--decode-each`), parsed once;
/// with the options it shares with `run`, they make the `FleetConfiguration`.
@Suite struct FleetOptionsParsingTests {
    func fleet(_ arguments: [String]) throws -> FleetCommand {
        try CLI.parse(FleetCommand.self, ["fleet", "--vast", "ad.xml"] + arguments)
    }

    @Test func everyFleetOption_isParsedIntoTheConfiguration() throws {
        let configuration = try fleet(["--sessions", "12", "--concurrency", "3", "--mix", "complete:1, skip:2", "--rate", "1500", "--shard", "1/4",
                                       "--decode-each", "--dry-run", "--seed", "9", "--beacon-concurrency", "8", "--screen", "640x360",
                                       "--pipeline", "4"]).fleetConfiguration()
        #expect(configuration.sessions == 12 && configuration.concurrency == 3)
        #expect(configuration.mix == (try FleetMix(parsing: "complete:1,skip:2")))
        #expect(configuration.rate == 1500 && configuration.shard == FleetShard(index: 1, count: 4) && configuration.decodeEach)
        #expect(configuration.session.dryRun && configuration.session.seed == 9 && configuration.session.beaconPolicy.maxConcurrent == 8)
        #expect(configuration.session.mediaCriteria.screenWidth == 640)
        #expect(configuration.session.beaconPolicy.pipelineDepth == 4)
        #expect(configuration.session.decoderThreads == 1, "a fleet decodes once, or many times side by side: one thread each")
    }

    @Test func notGiven_theDefaults() throws {
        let configuration = try fleet([]).fleetConfiguration()
        #expect(configuration.sessions == 1000 && configuration.concurrency == 16)
        #expect(configuration.mix == (try FleetMix(parsing: "complete:70,background:15,skip:10,close:5")))
        #expect(configuration.rate == nil && configuration.shard == .whole && !configuration.decodeEach)
        #expect(!configuration.session.dryRun && configuration.session.seed == 1 && configuration.session.beaconPolicy.maxConcurrent == 64)
        #expect(configuration.session.sink == nil && configuration.session.sinkFaults.isEmpty)
        #expect(configuration.session.beaconPolicy.pipelineDepth == 1, "one request at a time per connection, as devices send")
    }

    @Test func help_statesTheDefaults() {
        let help = VPlay.helpMessage(for: FleetCommand.self, columns: 1000)
        #expect(help.contains("How many viewers (sessions) in the whole fleet. (default: 1000)"))
        #expect(help.contains("Sessions played at once. (default: 16)"))
        #expect(help.contains("skip, close, terminate. (default: complete:70,background:15,skip:10,close:5)"))
    }

    /// Every option `fleet` had before its options were shared with `run` is still there.
    @Test func help_namesEveryFleetOption() {
        let help = VPlay.helpMessage(for: FleetCommand.self, columns: 1000)
        let words = Set(help.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") }).map(String.init))
        for option in ["--vast", "--map", "--max-wrappers", "--tag-timeouts", "--bandwidth", "--screen", "--media-file", "--adcash-state",
                       "--sessions", "--concurrency", "--mix", "--seed", "--rate", "--shard", "--decode-each", "--sink", "--sink-all",
                       "--sink-fault", "--dry-run", "--now", "--macro", "--beacon-timeout", "--beacon-concurrency", "--retries",
                       "--beacon-drain", "--fail-on-beacon-errors", "--report", "--json", "--pipeline"] {
            #expect(words.contains(option), "\(option) in fleet --help")
        }
    }

    @Test(arguments: [
        (["--sessions", "0"], "--sessions must be from 1 to 2147483646"),
        (["--sessions", "many"], "--sessions must be from 1 to 2147483646"),
        (["--sessions", "2147483647"], "--sessions must be from 1 to 2147483646"),
        (["--concurrency", "0"], "--concurrency must be 1 or more"),
        (["--mix", "complete:70,dance:30"], "--mix 'dance:30': expected KIND:WEIGHT with KIND one of"),
        (["--mix", "complete:x"], "--mix 'complete:x': the weight must be a whole number from 0 to 1000000"),
        (["--mix", "complete:0"], "--mix needs at least one positive weight"),
        (["--rate", "-5"], "--rate must be from 0.001 to 10000000 beacons per second"),
        (["--rate", "1e-300"], "--rate must be from 0.001 to 10000000 beacons per second"),
        (["--rate", "1e300"], "--rate must be from 0.001 to 10000000 beacons per second"),
        (["--pipeline", "0"], "--pipeline must be 1 to 64"),
        (["--pipeline", "65"], "--pipeline must be 1 to 64"),
        (["--shard", "3/3"], "--shard must be K/N with 0 ≤ K < N, e.g. 0/4"),
        (["--shard", "x"], "--shard must be K/N with 0 ≤ K < N, e.g. 0/4"),
    ])
    func badValue_isAUsageErrorNamingTheOption(_ arguments: [String], _ message: String) {
        let error = CLI.usageError(["fleet", "--vast", "ad.xml"] + arguments)
        #expect(error?.contains(message) == true, "\(arguments): \(error ?? "no usage error")")
        #expect(error?.contains(arguments[0]) == true, "the message names the option: \(error ?? "")")
    }
}
