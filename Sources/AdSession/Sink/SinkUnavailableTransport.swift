import BeaconSink
import TrackingBeacons

/// Fails, without sending, every beacon the embedded sink would have taken.
struct SinkUnavailableTransport: BeaconTransport {
    let routing: SinkRouting
    let base: any BeaconTransport

    func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        guard routing.routes(url) else { return await base.send(url, timeout: timeout) }
        return TransportOutcome(status: nil, error: .sinkUnavailable, latency: .zero, bytes: 0)
    }
}
