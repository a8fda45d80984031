import BeaconSink
import Testing

/// The grammar of the shaping faults: `rate=`, `ttfb=`, `stall=DURATION[@after:PERCENT%]`.
@Suite struct SinkShapingFaultSpecTests {
    @Test(arguments: [
        ("rate=200k@/media/*", SinkFault(pattern: "/media/*", kind: .rate(bytesPerSecond: 200 * 1024))),
        ("rate=1@/x", SinkFault(pattern: "/x", kind: .rate(bytesPerSecond: 1))),
        ("RATE=2M@*", SinkFault(pattern: "*", kind: .rate(bytesPerSecond: 2 * 1024 * 1024))),
        ("rate=32kx2@/media/a.mp4", SinkFault(pattern: "/media/a.mp4", kind: .rate(bytesPerSecond: 32768), times: 2)),
        ("ttfb=2s@/media/*", SinkFault(pattern: "/media/*", kind: .ttfb(.seconds(2)))),
        ("ttfb=1.5sx1@/x", SinkFault(pattern: "/x", kind: .ttfb(.milliseconds(1500)), times: 1)),
        ("stall=3s@after:40%@/media/*", SinkFault(pattern: "/media/*", kind: .timedStall(.seconds(3), afterPercent: 40))),
        ("STALL=250ms@AFTER:0%@*", SinkFault(pattern: "*", kind: .timedStall(.milliseconds(250), afterPercent: 0))),
        ("stall=3sx1@after:99%@/m", SinkFault(pattern: "/m", kind: .timedStall(.seconds(3), afterPercent: 99), times: 1)),
        ("stall=3s@/media/*", SinkFault(pattern: "/media/*", kind: .timedStall(.seconds(3), afterPercent: 0))),
        ("stall@/media/*", SinkFault(pattern: "/media/*", kind: .stall)),
    ])
    func shapingSpec_valid_parsesToTheFault(spec: String, expected: SinkFault) throws {
        #expect(try SinkFault(spec: spec) == expected)
    }

    @Test(arguments: [
        ("rate=0@/x", "at least 1 byte per second"),
        ("rate=@/x", "bytes (not bits) per second"),
        ("rate=200kbps@/x", "bytes (not bits) per second"),
        ("rate=2g@/x", "up to 1 GiB/s"),
        ("rate=1025m@/x", "up to 1 GiB/s"),
        ("ttfb=2@/x", "the ttfb must be a number with a unit"),
        ("ttfb=2h@/x", "the ttfb must be"),
        ("ttfb=3601s@/x", "at most 1 hour"),
        ("stall=1.s@/x", "the stall must be"),
        ("stall=4000s@after:40%@/x", "at most 1 hour"),
        ("stall=3s@after:40%", "needs a pattern after it"),
        ("stall=3s@after:40@/x", "a whole percent from 0% to 99%"),
        ("stall=3s@after:100%@/x", "a whole percent from 0% to 99%"),
        ("stall=3s@after:-1%@/x", "a whole percent from 0% to 99%"),
        ("stall=3s@after:%@/x", "a whole percent from 0% to 99%"),
        ("stall=3s@after:40%@", "the pattern after \"@\" is empty"),
        ("stall=3s@after:40%@media", "must start with \"/\""),
        ("stall@after:40%@/x", "only a timed stall takes @after:PERCENT%"),
        ("rate=1k@after:40%@/x", "only a timed stall takes @after:PERCENT%"),
        ("speed=1k@/x", "rate=…, ttfb=… or stall=…"),
    ])
    func shapingSpec_invalid_throwsAClearError(spec: String, reason: String) {
        do {
            _ = try SinkFault(spec: spec)
            Issue.record("\"\(spec)\" parsed but should not")
        } catch {
            guard case .invalidFaultSpec(let named, let said) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(named == spec)
            #expect(said.contains(reason), "\(said)")
        }
    }

    @Test(arguments: ["rate=204800@/media/*", "ttfb=2000ms@/media/*", "stall=3000ms@after:40%@/media/*",
                      "stall=1500msx2@after:0%@*", "rate=1x3@/x"])
    func shapingSpec_writtenBack_roundTrips(spec: String) throws {
        let fault = try SinkFault(spec: spec)
        #expect(fault.spec == spec)
        #expect(try SinkFault(spec: fault.spec) == fault)
    }

    @Test func shapingKinds_areTheOnlyOnesThatShapeTheBody() throws {
        let shaping = try ["rate=1k@/x", "ttfb=1s@/x", "stall=1s@/x"].map { try SinkFault(spec: $0).kind.shapesBody }
        let answering = try ["500@/x", "delay=1s@/x", "reset@/x", "hang@/x", "stall@/x", "body=1@/x"].map { try SinkFault(spec: $0).kind.shapesBody }
        #expect(shaping.allSatisfy { $0 } && answering.allSatisfy { !$0 })
    }
}
