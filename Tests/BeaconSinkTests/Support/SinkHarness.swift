import BeaconSink
import Primitives
import Synchronization

/// Where the sink tests' bodies run: `RawConnection` blocks its thread on every read (a shaping test waits seconds
/// for a delayed or trickled answer by design), and on Swift's cooperative pool, one thread per core, two such
/// tests stalled every other test's async code (stack samples of a whole suite run showed it for 40 s).
let blockingTestExecutor = BlockingExecutor(threads: 8, name: "vplay.sink-tests")

/// Starts a sink for one test, hands over its port, and always stops it afterwards. `body` runs on
/// `blockingTestExecutor`.
func withSink<T>(
    _ configuration: SinkConfiguration = SinkConfiguration(),
    now: @escaping @Sendable () -> Int64 = { fixedNow },
    _ body: (BeaconSink, Int) async throws -> T
) async throws -> T {
    let sink = BeaconSink(configuration: configuration, now: now)
    let port = try await sink.start()
    do {
        let result = try await withTaskExecutorPreference(blockingTestExecutor) { try await body(sink, port) }
        await sink.stop()
        return result
    } catch {
        await sink.stop()
        throw error
    }
}

/// The wall time every hit gets in tests that do not care: 2023-11-14T22:13:20Z.
let fixedNow: Int64 = 1_700_000_000_000

/// A clock that ticks one millisecond per reading, so hits get distinct, predictable times.
final class CountingClock: Sendable {
    private let current = Atomic<Int64>(fixedNow)

    var now: @Sendable () -> Int64 {
        { [self] in current.wrappingAdd(1, ordering: .relaxed).oldValue }
    }
}

/// The classic transparent tracking GIF, as the sink must send it.
let expectedPixel: [UInt8] = [
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0xFF, 0xFF, 0xFF,
    0x00, 0x00, 0x00, 0x21, 0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00,
    0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B,
]
