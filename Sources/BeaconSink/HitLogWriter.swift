#if canImport(Glibc)
import Primitives
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes the JSON Lines hit log: one ``SinkHit`` per line (its ``SinkHit/jsonBytes``), in sequence order, each line handed to the
/// kernel with its own `write(2)` as soon as every earlier hit's line has been written.
///
/// Hits are recorded on several event-loop threads. Each thread encodes its hit without a lock; the
/// writer then keeps a small reorder buffer so that a hit that overtook an earlier one on another thread
/// waits (microseconds) for it, and the file stays in sequence order. Nothing is buffered in user space
/// beyond that, so a crash of the process loses no line whose predecessors were written.
final class HitLogWriter: Sendable {
    private struct State {
        var descriptor: Int32
        var nextSequence = 1
        var waiting: [Int: [UInt8]] = [:]
        var failure: BeaconSinkError?
    }

    let path: String
    private let state: Locked<State>

    /// Opens the file at `path` for appending, creating it if needed: hits of an earlier run stay (each run's
    /// sequence numbers start again at 1), as `vplay sink --log` promises ("Append every hit to FILE").
    init(path: String) throws(BeaconSinkError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .logFailed(path: path, errno: errno) }
        self.path = path
        state = Locked(State(descriptor: descriptor))
    }

    /// The first write error, if any; writing stops at the first error.
    var failure: BeaconSinkError? {
        state.withLock { $0.failure }
    }

    /// Writes `hit` as one line, after all hits with smaller sequence numbers.
    func append(_ hit: SinkHit) {
        var line = hit.jsonBytes
        line.append(UInt8(ascii: "\n"))
        let path = self.path
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            state.waiting[hit.sequence] = line
            while let next = state.waiting.removeValue(forKey: state.nextSequence) {
                state.nextSequence += 1
                guard state.failure == nil else { continue }
                if let error = Self.writeAll(next, to: state.descriptor) {
                    state.failure = .logFailed(path: path, errno: error)
                }
            }
        }
    }

    /// Writes any lines still waiting for a predecessor (there are none once every recorded hit was
    /// appended) and closes the file. Later appends are ignored.
    func finish() {
        state.withLock { state in
            guard state.descriptor >= 0 else { return }
            for sequence in state.waiting.keys.sorted() where state.failure == nil {
                if let error = Self.writeAll(state.waiting[sequence]!, to: state.descriptor) {
                    state.failure = .logFailed(path: path, errno: error)
                }
            }
            state.waiting = [:]
            _ = close(state.descriptor)
            state.descriptor = -1
        }
    }

    /// Writes every byte, retrying on `EINTR` and short writes; returns the errno of a failure.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}
