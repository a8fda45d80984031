import BeaconSink
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite struct HitLogTests {
    private func temporaryLogPath() -> String {
        "/tmp/beacon-sink-test-\(UInt64.random(in: 0...UInt64.max)).jsonl"
    }

    @Test func hitLog_holdsOneParseableLinePerHitMatchingHits() async throws {
        let path = temporaryLogPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let clock = CountingClock()
        let configuration = SinkConfiguration(faults: [try SinkFault(spec: "503x1@/err")], logPath: path)
        let sink = BeaconSink(configuration: configuration, now: clock.now)
        let port = try await sink.start()
        let clients = try (0..<3).map { _ in try RawConnection(port: port) }
        for index in 0..<300 {
            let client = clients[index % 3]
            try client.send(RawConnection.request(index == 7 ? "/err" : "/hit?i=\(index)&s=%20\"quoted\""))
            _ = try client.readResponse()
        }

        // Written as recorded, before stop: nothing is held back for a crash to lose.
        let whileRunning = try String(contentsOfFile: path, encoding: .utf8)
        #expect(whileRunning.split(separator: "\n").count == 300)
        await sink.stop()
        #expect(sink.logFailure == nil)

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.last == "")
        let decoded = try lines.dropLast().map { try JSONDecoder().decode(SinkHit.self, from: Data($0.utf8)) }
        #expect(decoded == sink.hits())
        #expect(decoded.map(\.sequence) == Array(1...300))
        #expect(decoded[7].status == 503 && decoded[7].fault == "503x1@/err")
    }

    @Test func hitLog_existingFile_isAppendedTo_notTruncated() async throws {
        let path = temporaryLogPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"earlier\":\"run\"}\n".utf8).write(to: URL(fileURLWithPath: path))
        let sink = BeaconSink(configuration: SinkConfiguration(logPath: path), now: { fixedNow })
        let port = try await sink.start()
        let client = try RawConnection(port: port)
        try client.send(RawConnection.request("/impression"))
        _ = try client.readResponse()
        await sink.stop()
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first == "{\"earlier\":\"run\"}")
        #expect(try JSONDecoder().decode(SinkHit.self, from: Data(lines[1].utf8)).path == "/impression")
    }

    @Test func hitLog_unwritablePath_throwsLogFailedFromStart() async {
        let sink = BeaconSink(configuration: SinkConfiguration(logPath: "/nonexistent-dir/hits.jsonl"))
        await #expect(throws: BeaconSinkError.logFailed(path: "/nonexistent-dir/hits.jsonl", errno: ENOENT)) {
            try await sink.start()
        }
    }

    /// A sink told to keep no hit (a fleet's) still counts them, hands each to `onHit` before its answer is sent, and
    /// streams them to the log; `hits()` is empty.
    @Test func aSinkKeepingNoHit_handsEachToItsObserverBeforeAnswering_andStillLogsAndCountsThem() async throws {
        let path = temporaryLogPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let seen = SeenHits()
        var configuration = SinkConfiguration(logPath: path)
        configuration.keepsHits = false
        configuration.onHit = { seen.add($0) }
        let sink = BeaconSink(configuration: configuration, now: { fixedNow })
        let port = try await sink.start()
        let client = try RawConnection(port: port)
        for index in 0..<50 {
            try client.send(RawConnection.request("/hit?i=\(index)"))
            _ = try client.readResponse()
            #expect(seen.targets.count == index + 1, "seen before its answer")
        }
        #expect(sink.hitCount == 50 && sink.hits().isEmpty)
        await sink.stop()
        #expect(seen.targets == (0..<50).map { "/hit?i=\($0)" })
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        #expect(try lines.map { try JSONDecoder().decode(SinkHit.self, from: Data($0.utf8)).sequence } == Array(1...50))
    }
}

/// The hits an observer was handed, in order.
private final class SeenHits: Sendable {
    private let list = Mutex<[String]>([])
    func add(_ hit: SinkHit) { list.withLock { $0.append(hit.target) } }
    var targets: [String] { list.withLock { $0 } }
}
