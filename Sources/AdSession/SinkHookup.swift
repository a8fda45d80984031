import BeaconSink
import TrackingBeacons

/// The embedded sink of a run that asked for one (`--sink`, `--sink-all`), and the transport that routes beacons to
/// it: one session and a fleet start it the same way.
struct SinkHookup {
    let sink: BeaconSink
    let routing: SinkRouting
    let transport: any BeaconTransport

    /// Starts a sink with `faults` and routes the beacons in `scope` from `base` to it.
    /// With `rewardKeysSeed` (a reward callback is configured) it serves the reward verifier keys of that seed at
    /// `RewardSigner.keysPath`.
    static func start(scope: SinkRouting.Scope, faults: [SinkFault], base: any BeaconTransport, rewardKeysSeed: UInt64? = nil) async throws -> SinkHookup {
        var configuration = SinkConfiguration(faults: faults)
        if let seed = rewardKeysSeed { configuration.documents[RewardSigner.keysPath] = RewardSigner.keysDocument(seed: seed) }
        let sink = BeaconSink(configuration: configuration)
        let port = try await sink.start()
        let routing = SinkRouting(scope: scope, base: "http://127.0.0.1:\(port)")
        return SinkHookup(sink: sink, routing: routing, transport: RoutingTransport(base: base, route: routing.route))
    }

    /// The warning when the sink cannot start.
    static func unavailable(_ error: any Error) -> String {
        "the beacon sink could not start (\(error)); the beacons meant for it are not sent"
    }

    /// The transport when the sink cannot start: the beacons the sink would have taken fail at once, unsent, and
    /// only the others go out through `base`. Never to their own URLs: `--sink-all` promises that nothing leaves the
    /// machine.
    static func withoutSink(scope: SinkRouting.Scope, base: any BeaconTransport) -> any BeaconTransport {
        SinkUnavailableTransport(routing: SinkRouting(scope: scope, base: ""), base: base)
    }
}

/// Fails, without sending, every beacon the embedded sink would have taken.
struct SinkUnavailableTransport: BeaconTransport {
    let routing: SinkRouting
    let base: any BeaconTransport

    func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        guard routing.routes(url) else { return await base.send(url, timeout: timeout) }
        return TransportOutcome(status: nil, error: .sinkUnavailable, latency: .zero, bytes: 0)
    }
}
