import AdSession
import Testing
@testable import vplay

/// `--beacon-timeout`, `--beacon-drain`, `--retries`, `--beacon-concurrency`, `--fail-on-beacon-errors`: declared
/// once (`BeaconOptions`) for `run` and `fleet`, parsed once; only the default concurrency differs.
@Suite struct BeaconOptionsParsingTests {
    static let commands: [[String]] = [[], ["fleet"]]

    /// The configuration's beacon settings and `--fail-on-beacon-errors` after parsing `arguments`.
    func parsed(_ command: [String], _ arguments: [String]) throws -> (configuration: SessionConfiguration, failOnBeaconErrors: Bool) {
        var configuration = SessionConfiguration(tag: "ad.xml")
        let parsed = try VPlay.parseAsRoot(command + ["--vast", "ad.xml"] + arguments)
        if let run = parsed as? RunCommand {
            run.beacon.apply(to: &configuration)
            return (configuration, run.beacon.failOnBeaconErrors)
        }
        if let fleet = parsed as? FleetCommand {
            fleet.beacon.apply(to: &configuration)
            return (configuration, fleet.beacon.failOnBeaconErrors)
        }
        throw CLIError("\(command) parsed to \(type(of: parsed))")
    }

    @Test(arguments: commands)
    func beaconOptions_areParsedIntoThePolicy(_ command: [String]) throws {
        let (configuration, failOnBeaconErrors) = try parsed(command, ["--beacon-timeout", "2.25", "--beacon-drain", "0", "--retries", "10",
                                                                       "--beacon-concurrency", "10000", "--fail-on-beacon-errors"])
        #expect(configuration.beaconPolicy.timeout == .milliseconds(2250))
        #expect(configuration.beaconPolicy.retries == 10 && configuration.beaconPolicy.maxConcurrent == 10_000)
        #expect(configuration.beaconDrain == .zero)
        #expect(failOnBeaconErrors)
    }

    @Test(arguments: [([String](), 32), (["fleet"], 64)])
    func notGiven_5sTimeout_10sDrain_noRetries_andTheCommandsConcurrency(_ command: [String], _ concurrency: Int) throws {
        let (configuration, failOnBeaconErrors) = try parsed(command, [])
        #expect(configuration.beaconPolicy.timeout == .seconds(5) && configuration.beaconDrain == .seconds(10))
        #expect(configuration.beaconPolicy.retries == 0 && configuration.beaconPolicy.maxConcurrent == concurrency)
        #expect(!failOnBeaconErrors)
    }

    @Test(arguments: [("run", "Beacon requests in flight at once. (default: 32)"), ("fleet", "Beacon requests in flight at once over the fleet. (default: 64)")])
    func help_statesTheDefaults(_ command: String, _ concurrency: String) {
        let help = VPlay.helpMessage(for: command == "run" ? RunCommand.self : FleetCommand.self, columns: 1000)
        #expect(help.contains(concurrency), "\(help)")
        #expect(help.contains("Seconds each beacon request may take, body included. (default: 5)"))
        #expect(help.contains("the ones left are reported unanswered. (default: 10)"))
        #expect(help.contains("or a redirect error. (default: 0)"))
    }

    /// Values too large for the millisecond durations and counts they become used to stop vplay with a trap.
    @Test(arguments: commands, [
        (["--beacon-timeout", "0"], "--beacon-timeout must be a positive number of seconds, at most a year"),
        (["--beacon-timeout", "1e300"], "--beacon-timeout must be a positive number of seconds, at most a year"),
        (["--beacon-timeout", "-1"], "--beacon-timeout must be a positive number of seconds, at most a year"),
        (["--beacon-drain", "-2"], "--beacon-drain must be 0 or more seconds, at most a year"),
        (["--beacon-drain", "1e300"], "--beacon-drain must be 0 or more seconds, at most a year"),
        (["--beacon-drain", "nan"], "--beacon-drain must be 0 or more seconds, at most a year"),
        (["--retries", "-1"], "--retries must be 0 to 10"),
        (["--retries", "11"], "--retries must be 0 to 10"),
        (["--beacon-concurrency", "0"], "--beacon-concurrency must be 1 to 10000"),
        (["--beacon-concurrency", "9223372036854775807"], "--beacon-concurrency must be 1 to 10000"),
        (["--beacon-concurrency", "99999999999999999999"], "--beacon-concurrency must be 1 to 10000"),
    ])
    func badValue_isAUsageErrorNamingTheOption(_ command: [String], _ bad: ([String], String)) {
        let (arguments, message) = bad
        let error = CLI.usageError(command + ["--vast", "ad.xml"] + arguments)
        #expect(error?.contains(message) == true, "\(command + arguments): \(error ?? "no usage error")")
    }
}
