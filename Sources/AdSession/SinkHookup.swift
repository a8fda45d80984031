import BeaconSink
import TrackingBeacons

/// The embedded sink of a run that asked for one (`--sink`, `--sink-all`), and the transport that routes beacons to
/// it: one session and a fleet start it the same way.
struct SinkHookup {
    let sink: BeaconSink
    let routing: SinkRouting
    let transport: any BeaconTransport

    /// Starts a sink with `faults` and routes the beacons in `scope` from `http` to it.
    static func start(scope: SinkRouting.Scope, faults: [SinkFault], http: HTTPBeaconTransport) async throws -> SinkHookup {
        let sink = BeaconSink(configuration: SinkConfiguration(faults: faults))
        let port = try await sink.start()
        let routing = SinkRouting(scope: scope, base: "http://127.0.0.1:\(port)")
        return SinkHookup(sink: sink, routing: routing, transport: RoutingTransport(base: http, route: routing.route))
    }

    /// The warning when the sink cannot start: the run goes on, with beacons to their own URLs.
    static func unavailable(_ error: any Error) -> String {
        "the beacon sink could not start (\(error)); beacons go to their own URLs"
    }
}
