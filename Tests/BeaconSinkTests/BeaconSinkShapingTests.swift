import BeaconSink
import Foundation
import Testing

/// `rate=`, `ttfb=` and the timed `stall=`: real sockets over loopback. Only lower bounds on time: the machine may be
/// loaded, so a test never says how fast something must be, only that a fault made it at least this slow.
@Suite struct BeaconSinkShapingTests {
    private func configuration(_ folder: MediaFolder?, _ specs: String...) throws -> SinkConfiguration {
        SinkConfiguration(faults: try specs.map { try SinkFault(spec: $0) }, mediaDirectory: folder?.served.path)
    }

    @Test func rate_64KiBAt32KiBPerSecond_takesAtLeastTwoSeconds_withEveryByteRight() async throws {
        let folder = try MediaFolder()
        let bytes = try folder.write("clip.mp4", MediaFolder.pattern(64 * 1024))
        try await withSink(try configuration(folder, "rate=32k@/media/*")) { sink, port in
            let client = try RawConnection(port: port)
            let began = ContinuousClock.now
            try client.send(RawConnection.request("/media/clip.mp4"))
            let response = try client.readResponse(timeout: .seconds(300))
            let elapsed = ContinuousClock.now - began
            #expect(response.status == 200 && response.body == bytes)
            // Byte n leaves no earlier than n / rate after the head: 65,536 B at 32,768 B/s is 2 s.
            #expect(elapsed >= .milliseconds(1_900), "\(elapsed)")
            #expect(sink.hits().first?.fault == "rate=32768@/media/*")
            print("rate=32k, 64 KiB: \(elapsed)")
        }
    }

    @Test func rate_onARange_pacesThatRangeOnly() async throws {
        let folder = try MediaFolder()
        let bytes = try folder.write("clip.mp4", MediaFolder.pattern(256 * 1024))
        try await withSink(try configuration(folder, "rate=16k@/media/*")) { _, port in
            let client = try RawConnection(port: port)
            let began = ContinuousClock.now
            try client.send(RawConnection.request("/media/clip.mp4", extraHeaders: "Range: bytes=1000-17383\r\n"))
            let response = try client.readResponse(timeout: .seconds(300))
            let elapsed = ContinuousClock.now - began
            #expect(response.status == 206 && response.body == Array(bytes[1000...17383]))
            #expect(elapsed >= .milliseconds(900), "16 KiB at 16 KiB/s: \(elapsed)")
        }
    }

    @Test func rate_appliesToBeaconBodiesToo() async throws {
        try await withSink(try configuration(nil, "body=20k@/big", "rate=10k@/big")) { sink, port in
            let client = try RawConnection(port: port)
            let began = ContinuousClock.now
            try client.send(RawConnection.request("/big"))
            let response = try client.readResponse(timeout: .seconds(300))
            #expect(response.body == [UInt8](repeating: 0, count: 20 * 1024))
            #expect(ContinuousClock.now - began >= .milliseconds(1_900))
            #expect(sink.hits().first?.fault == "body=20480@/big rate=10240@/big", "both, in configuration order")
        }
    }

    @Test func ttfb_holdsTheHead_thenTheBodyComesWhole() async throws {
        let folder = try MediaFolder()
        let bytes = try folder.write("clip.mp4", MediaFolder.pattern(100_000))
        try await withSink(try configuration(folder, "ttfb=700ms@/media/*")) { sink, port in
            let client = try RawConnection(port: port)
            let began = ContinuousClock.now
            try client.send(RawConnection.request("/media/clip.mp4"))
            #expect(throws: RawConnection.Failure.timedOut, "nothing at all before the ttfb") {
                try client.readResponse(timeout: .milliseconds(300))
            }
            let response = try client.readResponse(timeout: .seconds(300))
            #expect(ContinuousClock.now - began >= .milliseconds(700))
            #expect(response.status == 200 && response.body == bytes)
            #expect(sink.hits().first?.fault == "ttfb=700ms@/media/*")
        }
    }

    @Test func ttfbAndRate_combine_andDelayAddsToTtfb() async throws {
        try await withSink(try configuration(nil, "delay=300ms@/p", "ttfb=300ms@/p", "ttfb=5s@/p", "rate=1k@/p")) { sink, port in
            let client = try RawConnection(port: port)
            let began = ContinuousClock.now
            try client.send(RawConnection.request("/p"))
            let response = try client.readResponse(timeout: .seconds(300))
            let elapsed = ContinuousClock.now - began
            #expect(response.body == expectedPixel)
            // 300 ms + 300 ms, then 43 bytes at 1,024 B/s (42 ms); the second ttfb is of a kind already applied.
            #expect(elapsed >= .milliseconds(600), "\(elapsed)")
            #expect(sink.hits().first?.fault == "delay=300ms@/p ttfb=300ms@/p rate=1024@/p")
        }
    }

    @Test func timedStall_pausesAtThePercent_thenSendsTheRestExactly() async throws {
        let folder = try MediaFolder()
        let bytes = try folder.write("clip.mp4", MediaFolder.pattern(1_000_000))
        try await withSink(try configuration(folder, "stall=1500ms@after:40%@/media/*")) { sink, port in
            let client = try RawConnection(port: port)
            let began = ContinuousClock.now
            try client.send(RawConnection.request("/media/clip.mp4"))
            // Exactly 40 % of the body, then nothing waiting: the pause began at that byte. (Reading for a fixed
            // 800 ms and counting what came assumed the machine sent 400 000 bytes in that time; a busy one did not.
            // The one timing assumption left: two reads 1.5 s apart at most.)
            #expect(try client.readBody(atLeast: 400_000, timeout: .seconds(300)) == 400_000, "exactly 40 % of the body before the pause")
            #expect(!client.hasBytesWaiting(), "the pause began at 40 %")
            let response = try client.readResponse(timeout: .seconds(300))
            #expect(ContinuousClock.now - began >= .milliseconds(1_500))
            #expect(response.status == 200 && response.body == bytes)
            #expect(sink.hits().first?.fault == "stall=1500ms@after:40%@/media/*")
        }
    }

    @Test func timedStall_aRangeAfterThePoint_doesNotPause_aRangeAcrossItDoes() async throws {
        let folder = try MediaFolder()
        let bytes = try folder.write("clip.mp4", MediaFolder.pattern(10_000))
        try await withSink(try configuration(folder, "stall=2s@after:50%@/media/*")) { _, port in
            let client = try RawConnection(port: port)
            var began = ContinuousClock.now
            try client.send(RawConnection.request("/media/clip.mp4", extraHeaders: "Range: bytes=6000-\r\n"))
            #expect(try client.readResponse(timeout: .milliseconds(1_500)).body == Array(bytes[6000...]), "no pause past 50 %")
            began = ContinuousClock.now
            try client.send(RawConnection.request("/media/clip.mp4", extraHeaders: "Range: bytes=4000-5999\r\n"))
            #expect(try client.readResponse(timeout: .seconds(300)).body == Array(bytes[4000...5999]))
            #expect(ContinuousClock.now - began >= .seconds(2))
        }
    }

    @Test func shaping_doesNotApplyToHangOrReset_andKeepsItsBudget() async throws {
        try await withSink(try configuration(nil, "resetx1@/r", "ttfb=200msx1@/r")) { sink, port in
            let client = try RawConnection(port: port)
            try client.send(RawConnection.request("/r"))
            #expect(client.readUntilClosed(timeout: .seconds(90)).failure == .reset)
            let second = try RawConnection(port: port)
            let began = ContinuousClock.now
            try second.send(RawConnection.request("/r"))
            #expect(try second.readResponse().body == expectedPixel)
            #expect(ContinuousClock.now - began >= .milliseconds(200), "the ttfb was not spent on the reset")
            #expect(sink.hits().map(\.fault) == ["resetx1@/r", "ttfb=200msx1@/r"])
        }
    }
}
