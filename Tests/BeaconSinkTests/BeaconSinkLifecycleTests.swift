import Primitives
import BeaconSink
import Testing

@Suite struct BeaconSinkLifecycleTests {
    @Test func sink_stop_freesThePortForANewSinkAndIsIdempotent() async throws {
        let first = BeaconSink(now: { fixedNow })
        let port = try await first.start()
        let client = try RawConnection(port: port)
        try client.send(RawConnection.request("/keep-me-open"))
        _ = try client.readResponse()

        await first.stop()
        await first.stop()
        #expect(client.readUntilClosed(timeout: .seconds(300)).failure != .timedOut)
        #expect(first.hits().count == 1)

        let second = BeaconSink(configuration: SinkConfiguration(port: port), now: { fixedNow })
        #expect(try await second.start() == port)
        let again = try RawConnection(port: port)
        try again.send(RawConnection.request("/again"))
        #expect(try again.readResponse().status == 200)
        await second.stop()
    }

    @Test func sink_stop_closesHungConnectionsAndEndsWaits() async throws {
        let sink = BeaconSink(configuration: SinkConfiguration(faults: [try SinkFault(spec: "hang@*")]), now: { fixedNow })
        let port = try await sink.start()
        let client = try RawConnection(port: port)
        try client.send(RawConnection.request("/hang"))
        #expect(await sink.waitForHits(count: 1, timeout: .seconds(90)))
        async let tooMany = sink.waitForHits(count: 5, timeout: .seconds(300))
        await sink.stop()
        #expect(await tooMany == false)
        #expect(client.readUntilClosed(timeout: .seconds(300)).failure != .timedOut)
    }

    @Test func sink_startTwice_throwsAlreadyStarted() async throws {
        let sink = BeaconSink()
        try await sink.start()
        await #expect(throws: BeaconSinkError.alreadyStarted) { try await sink.start() }
        await sink.stop()
        await #expect(throws: BeaconSinkError.alreadyStarted) { try await sink.start() }
    }

    @Test func sink_portInUse_throwsBindFailed() async throws {
        try await withSink { _, port in
            let other = BeaconSink(configuration: SinkConfiguration(port: port))
            do throws(BeaconSinkError) {
                try await other.start()
                Issue.record("second sink bound a port in use")
            } catch {
                guard case .bindFailed(_, let failedPort, _) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(failedPort == port)
            }
        }
    }

    @Test func sink_stopBeforeStart_isHarmless() async {
        let sink = BeaconSink()
        await sink.stop()
        #expect(sink.port == nil)
        #expect(sink.hits().isEmpty)
        #expect(await sink.waitForHits(count: 1, timeout: .seconds(1)) == false)
    }
}
