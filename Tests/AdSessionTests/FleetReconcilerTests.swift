import BeaconSink
import Testing
@testable import AdSession

/// A fleet matches each hit at the sink to its request as both arrive and keeps only what is unmatched.
struct FleetReconcilerTests {
    static func hit(_ target: String, device: SinkHit.DeviceHeaders? = nil) -> SinkHit {
        SinkHit(sequence: 1, connection: 1, method: "GET", target: target, path: target, query: nil, userAgent: nil, host: nil,
                receivedAtMilliseconds: 0, status: 200, fault: nil, device: device)
    }

    /// The sink sees a request before the fleet records its answer: the hit waits for the record that names its row.
    @Test func aHitBeforeItsRequestsRecord_waitsForIt_andIsCountedOnThatRow() {
        let reconciler = FleetReconciler()
        reconciler.hit(Self.hit("/q"))
        #expect(reconciler.unmatched == (requests: 0, hits: 1))
        #expect(reconciler.received(rows: 3) == (perKey: [0, 0, 0], unexpected: 1), "unexpected so far")
        reconciler.sent(target: "/q", row: 2)
        #expect(reconciler.unmatched == (requests: 0, hits: 0), "nothing kept once matched")
        #expect(reconciler.received(rows: 3) == (perKey: [0, 0, 1], unexpected: 0))
    }

    /// A hit whose target has requests waiting takes the lowest row; a hit nothing accounts for stays unexpected, a
    /// request the sink never saw leaves its row short.
    @Test func aHitAfterItsRequests_takesTheLowestRow_andWhatIsLeftIsReported() {
        let reconciler = FleetReconciler()
        reconciler.sent(target: "/same", row: 4)
        reconciler.sent(target: "/same", row: 1)
        reconciler.sent(target: "/never", row: 0)
        reconciler.hit(Self.hit("/same"))
        #expect(reconciler.received(rows: 5) == (perKey: [0, 1, 0, 0, 0], unexpected: 0))
        reconciler.hit(Self.hit("/same"))
        reconciler.hit(Self.hit("/stray"))
        #expect(reconciler.received(rows: 5) == (perKey: [0, 1, 0, 0, 1], unexpected: 1))
        #expect(reconciler.unmatched == (requests: 1, hits: 1))
        #expect(reconciler.hitsSeen == 3)
    }

    /// Many requests and hits, interleaved in any order, leave nothing behind: memory is what is in flight.
    @Test func interleavedRequestsAndHits_leaveNothingUnmatched() {
        let reconciler = FleetReconciler()
        for n in 0..<10_000 {
            let target = "/b?cb=\(n)"
            if n % 2 == 0 {
                reconciler.sent(target: target, row: n % 7)
                reconciler.hit(Self.hit(target))
            } else {
                reconciler.hit(Self.hit(target))
                reconciler.sent(target: target, row: n % 7)
            }
        }
        #expect(reconciler.unmatched == (requests: 0, hits: 0))
        let received = reconciler.received(rows: 7)
        #expect(received.perKey.reduce(0, +) == 10_000 && received.unexpected == 0)
        #expect(received.perKey == (0..<7).map { row in (0..<10_000).filter { $0 % 7 == row }.count })
    }

    /// Server-side mode: a hit without the device's fields fails the check; without a check there is none to fail.
    @Test func theDeviceCheck_failsOnAHitWithoutTheDevicesFields() {
        let device = SinkHit.DeviceHeaders(ip: "203.0.113.9", userAgent: "Device/1", forwardedFor: nil)
        let checked = FleetReconciler { $0.device == device }
        checked.hit(Self.hit("/a", device: device))
        #expect(checked.deviceFields == true)
        checked.hit(Self.hit("/b"))
        #expect(checked.deviceFields == false)
        #expect(FleetReconciler().deviceFields == nil)
    }
}
