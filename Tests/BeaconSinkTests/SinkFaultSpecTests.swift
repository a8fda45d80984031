import Primitives
import BeaconSink
import Testing

@Suite struct SinkFaultSpecTests {
    @Test(arguments: [
        ("500@/midpoint", SinkFault(pattern: "/midpoint", kind: .status(500))),
        ("status=404@/x", SinkFault(pattern: "/x", kind: .status(404))),
        ("delay=2s@/start", SinkFault(pattern: "/start", kind: .delay(.seconds(2)))),
        ("delay=200ms@/start", SinkFault(pattern: "/start", kind: .delay(.milliseconds(200)))),
        ("delay=1.5s@/start", SinkFault(pattern: "/start", kind: .delay(.milliseconds(1500)))),
        ("DELAY=250US@/start", SinkFault(pattern: "/start", kind: .delay(.microseconds(250)))),
        ("delay=0ms@/start", SinkFault(pattern: "/start", kind: .delay(.zero))),
        ("reset@*", SinkFault(pattern: "*", kind: .reset)),
        ("hang@/impression", SinkFault(pattern: "/impression", kind: .hang)),
        ("stall@/midpoint", SinkFault(pattern: "/midpoint", kind: .stall)),
        ("STALLx1@*", SinkFault(pattern: "*", kind: .stall, times: 1)),
        ("body=65536@/pixel", SinkFault(pattern: "/pixel", kind: .body(bytes: 65536))),
        ("body=2m@/pixel", SinkFault(pattern: "/pixel", kind: .body(bytes: 2 * 1024 * 1024))),
        ("500x1@/complete", SinkFault(pattern: "/complete", kind: .status(500), times: 1)),
        ("delay=2sx3@/start", SinkFault(pattern: "/start", kind: .delay(.seconds(2)), times: 3)),
        ("resetx2@/a@b", SinkFault(pattern: "/a@b", kind: .reset, times: 2)),
        ("404@/track?event=skip", SinkFault(pattern: "/track?event=skip", kind: .status(404))),
    ])
    func faultSpec_valid_parsesToTheFault(spec: String, expected: SinkFault) throws {
        #expect(try SinkFault(spec: spec) == expected)
    }

    @Test(arguments: [
        "500", "@/x", "500@", "500@midpoint", "500@/a b", "99@/x", "600@/x", "2000@/x", "teapot@/x",
        "500x0@/x", "500x@/x", "500xx1@/x", "delay=@/x", "delay=2@/x", "delay=2h@/x", "delay=.5s@/x",
        "delay=1.s@/x", "delay=3601s@/x", "delay=-1s@/x", "body=@/x", "body=1g@/x", "body=2048m@/x",
        "body=-1@/x", "reset=1@/x", "",
    ])
    func faultSpec_invalid_throwsAnErrorNamingTheSpec(spec: String) {
        do {
            _ = try SinkFault(spec: spec)
            Issue.record("\"\(spec)\" parsed but should not")
        } catch {
            guard case .invalidFaultSpec(let named, let reason) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(named == spec)
            #expect(!reason.isEmpty)
            #expect(error.description.contains("\"\(spec)\""))
            #expect(error.code == "invalid-fault-spec")
        }
    }

    @Test(arguments: ["500@/midpoint", "delay=200ms@/start", "delay=250us@/s", "reset@*", "hang@/i", "body=10@/p",
                      "500x1@/complete", "404@/t/*/q?e=1"])
    func faultSpec_writtenBack_roundTrips(spec: String) throws {
        let fault = try SinkFault(spec: spec)
        #expect(fault.spec == spec)
        #expect(try SinkFault(spec: fault.spec) == fault)
    }

    @Test func faultSpec_delayWithNanoseconds_isWrittenExactly() throws {
        let fault = SinkFault(pattern: "/x", kind: .delay(.nanoseconds(1_500)))
        #expect(fault.spec == "delay=1500ns@/x")
        #expect(try SinkFault(spec: "delay=1.5us@/x") == fault)
    }
}
