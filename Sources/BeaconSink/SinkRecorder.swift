import Primitives
import NIOCore

/// The sink's memory: every hit in arrival order (unless it keeps none: then only their count), how often each fault
/// has been used, and who is waiting for a number of hits. One lock guards it all, taken once per request, so
/// sequence numbers, fault budgets and the hit list always agree.
final class SinkRecorder: Sendable {
    private struct Waiter {
        var count: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var hits: [SinkHit] = []
        var count = 0
        var faultUses: [Int]
        var waiters: [Int: Waiter] = [:]
        var nextWaiter = 0
        var log: HitLogWriter?
        var isFinished = false
    }

    private let faults: [SinkFault]
    private let patterns: [SinkPathPattern]
    private let faultSpecs: [String]
    private let now: @Sendable () -> Int64
    private let keepsHits: Bool
    private let onHit: (@Sendable (SinkHit) -> Void)?
    private let state: Locked<State>

    init(faults: [SinkFault], keepsHits: Bool = true, onHit: (@Sendable (SinkHit) -> Void)? = nil, now: @escaping @Sendable () -> Int64) {
        self.faults = faults
        self.keepsHits = keepsHits
        self.onHit = onHit
        patterns = faults.map { SinkPathPattern($0.pattern) }
        faultSpecs = faults.map(\.spec)
        self.now = now
        state = Locked(State(faultUses: Array(repeating: 0, count: faults.count)))
    }

    /// Starts logging every later hit to `log`.
    func attach(log: HitLogWriter) {
        state.withLock { $0.log = log }
    }

    /// Records `request` as the next hit and decides its answer: the first matching answer fault with budget
    /// left, or the plain answer (`content`, a media file's, or the pixel), shaped by every matching shaping
    /// fault with budget left (the first of each kind) when the answer is one that is written; `forced` (a
    /// 413) overrides all of them and uses no fault.
    func record(
        _ request: SinkRequest,
        forced: SinkAnswer? = nil,
        content: SinkAnswer? = nil
    ) -> (hit: SinkHit, answer: SinkAnswer, delay: Duration?, shaping: SinkShaping) {
        let (path, query) = request.pathAndQuery
        let matching = forced == nil ? faults.indices.filter { patterns[$0].matches(path: path, target: request.target) } : []
        var resumed: [(CheckedContinuation<Bool, Never>, Bool)] = []
        let (hit, answer, delay, shaping, log) = state.withLock { state in
            func hasBudget(_ index: Int) -> Bool {
                faults[index].times.map { state.faultUses[index] < $0 } ?? true
            }
            var applied: [Int] = []
            let answerFault = matching.first { !faults[$0].kind.shapesBody && hasBudget($0) }
            if let answerFault {
                state.faultUses[answerFault] += 1
                applied.append(answerFault)
            }
            let decision = forced.map { ($0, Duration?.none) }
                ?? SinkAnswer.deciding(fault: answerFault.map { faults[$0].kind }, method: request.method, content: content)
            var shaping = SinkShaping()
            if decision.0.isWritten {
                for index in matching where faults[index].kind.shapesBody && hasBudget(index) && shaping.add(faults[index].kind) {
                    state.faultUses[index] += 1
                    applied.append(index)
                }
            }
            let hit = SinkHit(
                sequence: state.count + 1,
                connection: request.connection,
                method: request.method,
                target: request.target,
                path: path,
                query: query,
                userAgent: request.userAgent,
                host: request.host,
                receivedAtMilliseconds: now(),
                status: decision.0.status,
                fault: applied.isEmpty ? nil : applied.sorted().map { faultSpecs[$0] }.joined(separator: " "),
                range: request.range,
                device: request.device
            )
            state.count += 1
            if keepsHits { state.hits.append(hit) }
            if !state.waiters.isEmpty {
                for (id, waiter) in state.waiters where waiter.count <= state.count {
                    state.waiters[id] = nil
                    resumed.append((waiter.continuation, true))
                }
            }
            return (hit, decision.0, decision.1, shaping, state.log)
        }
        onHit?(hit)
        for (continuation, value) in resumed { continuation.resume(returning: value) }
        log?.append(hit)
        return (hit, answer, delay, shaping)
    }

    /// How many hits so far, without copying them.
    var count: Int {
        state.withLock { $0.count }
    }

    /// A copy of every hit so far, in sequence order (none when it keeps none).
    func hits() -> [SinkHit] {
        state.withLock { $0.hits }
    }

    /// Waits until at least `count` hits are recorded (true), or `timeout` passes, the task is cancelled or
    /// the recorder finishes first (false). The timeout runs on `eventLoop`, so no task sleeps.
    func waitForHits(count: Int, timeout: Duration, on eventLoop: any EventLoop) async -> Bool {
        let id = state.withLock { state in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let immediate: Bool? = state.withLock { state in
                    if state.count >= count { return true }
                    if state.isFinished || Task.isCancelled { return false }
                    state.waiters[id] = Waiter(count: count, continuation: continuation)
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                } else {
                    eventLoop.scheduleTask(in: TimeAmount(timeout)) { [self] in
                        self.expireWaiter(id)
                    }
                }
            }
        } onCancel: {
            expireWaiter(id)
        }
    }

    /// Ends every wait (with false unless already satisfied), stops logging and closes the log.
    func finish() {
        let (waiters, log, count) = state.withLock { state in
            state.isFinished = true
            let waiters = state.waiters
            state.waiters = [:]
            let log = state.log
            state.log = nil
            return (waiters, log, state.count)
        }
        for waiter in waiters.values { waiter.continuation.resume(returning: waiter.count <= count) }
        log?.finish()
    }

    private func expireWaiter(_ id: Int) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: false)
    }
}
