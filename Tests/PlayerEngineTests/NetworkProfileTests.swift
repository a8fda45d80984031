import Foundation
import Testing
import TestSupport
@_spi(LiveParts) @testable import PlayerEngine

/// The download model's arithmetic: two round trips, then the rate integrated over its steps; `bytes(arrivedBy:)` is
/// its inverse (the throttle uses one, the model the other).
@Suite struct NetworkProfileTests {
    @Test func arrival_isTwoRoundTripsThenTheRate() throws {
        let profile = try NetworkProfile(parsing: "kbps=800,rtt=100")
        #expect(profile.arrival(ofBytes: 0) == .milliseconds(200))
        #expect(profile.arrival(ofBytes: 100_000) == .milliseconds(1_200), "100 kB at 100 kB/s after 0.2 s")
        #expect(profile.bytes(arrivedBy: .milliseconds(200)) == 0)
        #expect(profile.bytes(arrivedBy: .milliseconds(1_200)) == 100_000)
    }

    @Test func trace_integratesEachStep_andZeroForGoodNeverArrives() throws {
        let trace = try NetworkProfile(trace: Data(#"{"rtt": 0, "steps": [{"at": 0, "kbps": 80}, {"at": 1, "kbps": 0}, {"at": 3, "kbps": 160}]}"#.utf8), name: "t")
        #expect(trace.arrival(ofBytes: 10_000) == .seconds(1), "10 kB in the first second")
        #expect(trace.arrival(ofBytes: 30_000) == .seconds(4), "then nothing for 2 s, then 20 kB/s")
        #expect(trace.bytes(arrivedBy: .seconds(2)) == 10_000 && trace.bytes(arrivedBy: .milliseconds(3_500)) == 20_000)
        let dropped = NetworkProfile(name: "d", rtt: .zero, steps: [.init(at: .zero, kbps: 80), .init(at: .seconds(1), kbps: 0)])
        #expect(dropped.arrival(ofBytes: 10_001) == nil)
        #expect(try NetworkProfile(parsing: "offline").arrival(ofBytes: 1) == nil)
    }

    @Test(arguments: [1, 999, 12_345, 250_000])
    func bytesArrivedBy_invertsArrival(bytes: Int64) throws {
        let profile = try NetworkProfile(parsing: "fast3g")
        let at = try #require(profile.arrival(ofBytes: bytes))
        #expect(profile.bytes(arrivedBy: at) >= bytes && profile.bytes(arrivedBy: at - .milliseconds(1)) < bytes)
    }

    @Test func parsing_namesAndErrors() throws {
        #expect(try NetworkProfile(parsing: "FAST3G").initialKbps == 1_600)
        #expect(try NetworkProfile(parsing: "fast3g").rtt == .milliseconds(150))
        for bad in ["3g", "kbps=-1", "rtt=100", "kbps=10,foo=1", "kbps=10,rtt=70000"] {
            #expect(throws: NetworkProfile.ParseError.self) { try NetworkProfile(parsing: bad) }
        }
        // `kbps=0x10` was read as hexadecimal (16 kbps) and a repeated key silently took the last value.
        for (bad, reason) in [("kbps=0x10", "decimal numbers"), ("kbps=infinity", "decimal numbers"), ("kbps=100,kbps=5", "kbps is given twice"),
                              ("kbps=100,rtt=5,rtt=9", "rtt is given twice")] {
            #expect { try NetworkProfile(parsing: bad) } throws: { ($0 as? NetworkProfile.ParseError)?.description.contains(reason) == true }
        }
        #expect(try NetworkProfile(parsing: "kbps=1.5e3").initialKbps == 1_500)
    }
}

/// The byte map a run gets from its open's timeline pass is the one a separate pass (a fleet's, remote media's)
/// makes: the same model either way.
@Suite struct DeliveryMapTests {
    @Test(arguments: ["clip-10s-360p.mp4", "clip-5s-video-only.mp4", "clip-audio-outlasts-video.mp4"])
    func timelinePassMap_equalsTheSeparatePass(name: String) throws {
        let path = Repo.media(name)
        var options = MediaOpenOptions(decoderThreads: 1)
        options.mapDelivery = true
        let source = try FFmpegMediaSource(location: path, options: options)
        let fromOpen = try #require(source.deliveryMap)
        let separate = try FFmpegMediaSource.deliveryMap(location: path, options: MediaOpenOptions(openDecoders: false, measureTimeline: false),
                                                         timelineStart: source.info.timeline.start)
        #expect(fromOpen == separate)
        #expect(fromOpen.size == Int64(try Data(contentsOf: URL(fileURLWithPath: path)).count))
        #expect(!fromOpen.headerAtEnd && fromOpen.bytesNeeded(through: .seconds(100)) <= fromOpen.size)
    }
}

/// Hostile rates never crash the arithmetic: a rate so slow a file would take centuries never arrives; one so fast
/// that a year of it is more bytes than exist is capped.
@Suite struct NetworkProfileExtremesTests {
    @Test(arguments: ["kbps=0.0000001", "kbps=1e-300", "kbps=1e300", "kbps=1e300,rtt=60000", "kbps=0.001,rtt=60000"])
    func extremeRates_neverTrap(text: String) throws {
        let profile = try NetworkProfile(parsing: text)
        for bytes: Int64 in [0, 1, 1_000_000, 1 << 40, Int64.max / 2] {
            if let at = profile.arrival(ofBytes: bytes) { #expect(at >= .zero && at < NetworkProfile.horizon) }
        }
        for time: Duration in [.zero, .seconds(1), .seconds(86_400), NetworkProfile.horizon] {
            #expect(profile.bytes(arrivedBy: time) >= 0)
        }
        #expect(try NetworkProfile(parsing: "kbps=0.0000001").arrival(ofBytes: 1_000_000) == nil, "centuries: never")
    }

    @Test func hostileTraces_areRefusedOrSafe() {
        for bad in [#"[{"at": -1, "kbps": 1}]"#, #"[{"at": 1e400, "kbps": 1}]"#, #"[{"at": 0, "kbps": "x"}]"#, #"{"rtt": 1e9, "steps": [{"at": 0, "kbps": 1}]}"#,
                    "[]", "{}", "not json", #"[{"at": true, "kbps": 1}]"#] {
            #expect(throws: NetworkProfile.ParseError.self, "\(bad)") { try NetworkProfile(trace: Data(bad.utf8), name: "t") }
        }
    }
}
