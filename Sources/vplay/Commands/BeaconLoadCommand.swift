import AdSession
import Primitives
import ArgumentParser
import Foundation
import TrackingBeacons

/// `vplay beacon-load --url URL --count N`: fires N beacons through vplay's own dispatcher and HTTP transport (the
/// path every session uses) and reports throughput and latency. For scripts/bench-beacons.sh against `vplay sink`.
struct BeaconLoadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "beacon-load",
        abstract: "Fire N beacons at a URL through vplay's dispatcher; report beacons/s and latency percentiles.",
        shouldDisplay: false
    )

    @Option(help: "The URL to request ([CACHEBUSTING] is filled for each request).")
    var url: String

    @Option(help: .withDefault("How many beacons.", 10_000, valueName: "count"), transform: OptionValue.integer(in: 1..., else: "--count must be 1 or more"))
    var count = 10_000

    @Option(help: .withDefault("Requests in flight at once.", 64, valueName: "concurrency"),
            transform: OptionValue.integer(in: 1..., else: "--concurrency must be 1 or more"))
    var concurrency = 64

    @Flag(help: "Through the fleet's pooled keep-alive transport, not the single session's full one.")
    var pooled = false

    @Option(help: .withDefault("With --pooled: requests pipelined on one connection at once.", 1, valueName: "N"),
            transform: OptionValue.integer(in: 1...OptionRanges.maxPipeline, else: "--pipeline must be 1 to \(OptionRanges.maxPipeline)"))
    var pipeline = 1

    @Flag(help: "Print one JSON object.")
    var json = false

    func run() async throws {
        let (transport, shutdown, clock, wallClock) = LiveTools.beacons(userAgent: "vplay-beacon-load", pooled: pooled, connections: concurrency, pipeline: pipeline)
        let stats = LoadStats()
        let dispatcher = BeaconDispatcher(
            transport: transport, policy: BeaconPolicy(timeout: .seconds(10), maxConcurrent: concurrency), clock: clock,
            wallClock: wallClock
        ) { record in await stats.add(record) }
        var buster = CacheBuster(seed: 1)
        let expander = MacroExpander()
        let started = clock.now
        for index in 0..<count {
            let expanded = expander.expand(url, values: ["CACHEBUSTING": buster.next()]).url
            await dispatcher.submit(PlannedBeacon(event: "load", source: "load \(index)", template: url, url: expanded, playhead: .zero, clock: .zero))
        }
        await dispatcher.finish(waitingAtMost: .seconds(120))
        let elapsed = started.duration(to: clock.now)
        await shutdown()
        let result = await stats.summary(elapsed: elapsed)
        StandardStreams.print(json ? result.json.text : result.text)
        try CommandOutputs.exit(result.failed > 0 ? ExitCode.beaconFailures.rawValue : 0)
    }
}

