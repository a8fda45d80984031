import AdSession
import ArgumentParser
import TrackingBeacons

/// How beacons are sent, declared once for `run` and `fleet`: timeout, drain, retries, requests in flight, and
/// whether an undelivered beacon fails the run. `Command` gives what differs: its default `--beacon-concurrency`.
struct BeaconOptions<Command: BeaconDefaults>: ParsableArguments {
    @Option(parsing: .unconditional, help: .withDefault("Seconds each beacon request may take, body included.", seconds: .seconds(5)),
            transform: OptionValue.seconds(positive: true, else: "--beacon-timeout must be a positive number of seconds, at most a year"))
    var beaconTimeout: Duration = .seconds(5)

    @Option(parsing: .unconditional, help: .withDefault("Seconds the end of the run waits for beacons still in flight; the ones left are reported unanswered.", seconds: .seconds(10)),
            transform: OptionValue.seconds(else: "--beacon-drain must be 0 or more seconds, at most a year"))
    var beaconDrain: Duration = .seconds(10)

    @Flag(help: "Exit 5 when any beacon was not delivered.")
    var failOnBeaconErrors = false

    @Option(parsing: .unconditional, help: .withDefault("Retry a beacon this many times (0 to 10) when it surely did not arrive (refused, DNS, connect timeout, TLS) or got a 5xx; never after a timeout, a reset once sent, or a redirect error.", 0, valueName: "N"),
            transform: OptionValue.integer(in: 0...10, else: "--retries must be 0 to 10"))
    var retries = 0

    @Option(parsing: .unconditional, help: .withDefault("Beacon requests in flight at once\(Command.concurrencyScope).", Command.beaconConcurrency, valueName: "N"),
            transform: OptionValue.integer(in: 1...OptionRanges.maxBeaconConcurrency, else: "--beacon-concurrency must be 1 to \(OptionRanges.maxBeaconConcurrency)"))
    var beaconConcurrency = Command.beaconConcurrency

    /// Applies these options to a session configuration.
    func apply(to configuration: inout SessionConfiguration) {
        configuration.beaconPolicy = BeaconPolicy(timeout: beaconTimeout, retries: retries, maxConcurrent: beaconConcurrency)
        configuration.beaconDrain = beaconDrain
    }
}

