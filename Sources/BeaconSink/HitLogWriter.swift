import Primitives

/// Writes the JSON Lines hit log: one ``SinkHit`` per line (its ``SinkHit/jsonBytes``), in sequence order, each line handed to the
/// kernel with its own checked `write(2)` (`OutputFile`) as soon as every earlier hit's line has been written.
///
/// Hits are recorded on several event-loop threads. Each thread encodes its hit without a lock; the
/// writer then keeps a small reorder buffer so that a hit that overtook an earlier one on another thread
/// waits (microseconds) for it, and the file stays in sequence order. Nothing is buffered in user space
/// beyond that, so a crash of the process loses no line whose predecessors were written.
final class HitLogWriter: Sendable {
    private struct State {
        var nextSequence = 1
        var waiting: [Int: [UInt8]] = [:]
        var finished = false
    }

    let path: String
    private let file: OutputFile
    private let state: Locked<State>

    /// Opens the file at `path` for appending, creating it if needed: hits of an earlier run stay (each run's
    /// sequence numbers start again at 1), as `vplay sink --log` promises ("Append every hit to FILE"). A device or
    /// FIFO is written as it is (`OutputFile`).
    init(path: String) throws(BeaconSinkError) {
        do { file = try OutputFile(path, option: "", appending: true) } catch {
            throw .logFailed(path: path, errno: error.errno)
        }
        self.path = path
        state = Locked(State())
    }

    /// The first write error, if any; writing stops at the first error.
    var failure: BeaconSinkError? {
        file.failure.map { .logFailed(path: path, errno: $0.errno) }
    }

    /// Writes `hit` as one line, after all hits with smaller sequence numbers.
    func append(_ hit: SinkHit) {
        var line = hit.jsonBytes
        line.append(UInt8(ascii: "\n"))
        state.withLock { state in
            guard !state.finished else { return }
            state.waiting[hit.sequence] = line
            while let next = state.waiting.removeValue(forKey: state.nextSequence) {
                state.nextSequence += 1
                try? file.write(next)
            }
        }
    }

    /// Writes any lines still waiting for a predecessor (there are none once every recorded hit was
    /// appended) and closes the file. Later appends are ignored.
    func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            for sequence in state.waiting.keys.sorted() { try? file.write(state.waiting[sequence]!) }
            state.waiting = [:]
            state.finished = true
            try? file.commit()
        }
    }
}
