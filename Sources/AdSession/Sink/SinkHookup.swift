import BeaconSink
import TrackingBeacons

/// The embedded sink of a run that asked for one (`--sink`, `--sink-all`), and the transport that routes beacons to
/// it: one session and a fleet start it the same way.
struct SinkHookup {
    let sink: BeaconSink
    let routing: SinkRouting
    let transport: any BeaconTransport

    /// Starts a sink with `faults` (through the environment's `startSink`) and routes the beacons in `scope` from
    /// `base` to it. With `rewardKeysSeed` (a reward callback is configured) it serves the reward verifier keys of
    /// that seed at `RewardSigner.keysPath`. With `reconciling`, the sink keeps no hit but hands each to it as it
    /// arrives; with `log`, it streams every hit to that file.
    static func start(scope: SinkRouting.Scope, faults: [SinkFault], base: any BeaconTransport, rewardKeysSeed: UInt64? = nil,
                      reconciling reconciler: FleetReconciler? = nil, log: String? = nil,
                      startSink: @Sendable (SinkConfiguration) async throws -> (sink: BeaconSink, port: Int)) async throws -> SinkHookup {
        var configuration = SinkConfiguration(faults: faults, logPath: log)
        if let reconciler {
            configuration.keepsHits = false
            configuration.onHit = { reconciler.hit($0) }
        }
        if let seed = rewardKeysSeed { configuration.documents[RewardSigner.keysPath] = RewardSigner.keysDocument(seed: seed) }
        let (sink, port) = try await startSink(configuration)
        let routing = SinkRouting(scope: scope, base: "http://127.0.0.1:\(port)")
        return SinkHookup(sink: sink, routing: routing, transport: RoutingTransport(base: base, route: routing.route))
    }

    /// Where a session's or a fleet's beacons go, decided once for both: to the embedded sink (`sink`), to an
    /// outside collector (`collector`), or to their own URLs through `base`. `sink` and `routing` are set only
    /// with an embedded sink (its hits are reconciled); `warning` when it could not start.
    struct Connection {
        var sink: BeaconSink?
        var routing: SinkRouting?
        var transport: (any BeaconTransport)?
        var warning: String?
    }

    /// `reconciling`: a fleet's, which matches each hit as it arrives (the sink keeps none).
    static func connect(_ configuration: SessionConfiguration, environment: SessionEnvironment,
                        reconciling reconciler: FleetReconciler? = nil) async -> Connection {
        let base = environment.beaconTransport
        guard let http = base else { return Connection(transport: nil) }
        if let collector = configuration.collector {
            let routing = SinkRouting(scope: .all, base: collector)
            return Connection(transport: RoutingTransport(base: http, route: routing.route))
        }
        guard let scope = configuration.sink else { return Connection(transport: http) }
        do {
            let hookup = try await start(scope: scope, faults: configuration.sinkFaults, base: http,
                                         rewardKeysSeed: configuration.rewardCallback.map { _ in configuration.seed },
                                         reconciling: reconciler, log: configuration.sinkLog, startSink: environment.startSink)
            return Connection(sink: hookup.sink, routing: hookup.routing, transport: hookup.transport)
        } catch {
            return Connection(transport: withoutSink(scope: scope, base: http), warning: unavailable(error))
        }
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

