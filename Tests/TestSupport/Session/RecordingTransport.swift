import Primitives
import Synchronization
import TrackingBeacons

/// The project's one recording beacon transport: it keeps every URL asked for and answers from a script, in turn
/// (the last answer repeats) or by URL. An answer's wait runs on a `ManualClock`, so a test decides when it comes;
/// with no wait the answer is immediate and its `latency` is only reported.
public final class RecordingTransport: BeaconTransport {
    /// What one request gets, after `delay` on the transport's clock.
    public struct Answer: Sendable, Equatable {
        public enum Kind: Sendable, Equatable {
            /// A complete response with this status.
            case status(Int)
            /// No answer before the attempt's timeout (`BeaconFailure.timedOut`, latency = the timeout).
            case timeout
            /// Connection refused, before a byte of the request was written.
            case refused
            /// The connection reset after the request was written.
            case reset
        }
        public var kind: Kind
        public var delay: Duration

        public init(_ kind: Kind, delay: Duration = .zero) { (self.kind, self.delay) = (kind, delay) }
        public static func status(_ status: Int, delay: Duration = .zero) -> Answer { Answer(.status(status), delay: delay) }
        public static let ok = Answer(.status(200))
        public static let timeout = Answer(.timeout)
        public static let refused = Answer(.refused)
        public static let reset = Answer(.reset)
    }

    /// Every URL requested, in order.
    public let sent = Mutex<[String]>([])
    /// Every request with the network clock's time when it was made, in order.
    public let timed = Mutex<[(url: String, at: Duration)]>([])
    /// Requests in flight now, and the most ever at once.
    public let concurrency = Mutex<(now: Int, most: Int)>((0, 0))
    /// Answers in turn; the last one repeats.
    public let answers: [Answer]
    /// Answers for URLs containing a key (checked before `answers`, first match in key order).
    public let byURL: [(contains: String, answer: Answer)]
    public let clock: ManualClock

    public init(answers: [Answer] = [.ok], byURL: [(contains: String, answer: Answer)] = [], clock: ManualClock = ManualClock()) {
        self.answers = answers.isEmpty ? [.ok] : answers
        self.byURL = byURL
        self.clock = clock
    }

    /// The dispatcher tests' form: statuses in turn (nil = refused, -1 = timed out, -2 = reset), waits in turn; each
    /// list's last entry repeats.
    public convenience init(statuses: [Int?], delays: [Duration] = [.zero], clock: ManualClock = ManualClock()) {
        let (statuses, delays) = (statuses.isEmpty ? [200] : statuses, delays.isEmpty ? [.zero] : delays)
        let answers = (0..<max(statuses.count, delays.count)).map { index in
            Self.answer(statuses[min(index, statuses.count - 1)], delay: delays[min(index, delays.count - 1)])
        }
        self.init(answers: answers, clock: clock)
    }

    public convenience init(status: Int?, delay: Duration = .zero, clock: ManualClock = ManualClock()) {
        self.init(statuses: [status], delays: [delay], clock: clock)
    }

    private static func answer(_ status: Int?, delay: Duration) -> Answer {
        guard let status else { return Answer(.refused, delay: delay) }
        return switch status {
        case -1: Answer(.timeout, delay: delay)
        case -2: Answer(.reset, delay: delay)
        default: Answer(.status(status), delay: delay)
        }
    }

    public func send(_ url: String, timeout: Duration) async -> TransportOutcome {
        let index = sent.withLock { $0.append(url); return $0.count - 1 }
        timed.withLock { $0.append((url, clock.now.offset)) }
        concurrency.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
        defer { concurrency.withLock { $0.now -= 1 } }
        let answer = byURL.first { url.contains($0.contains) }?.answer ?? answers[min(index, answers.count - 1)]
        if answer.delay > .zero { try? await clock.sleep(for: answer.delay) }
        return Self.outcome(answer, timeout: timeout)
    }

    /// The URLs requested so far, in order.
    public var urls: [String] { sent.withLock { $0 } }

    public static func outcome(_ answer: Answer, timeout: Duration = .seconds(5)) -> TransportOutcome {
        switch answer.kind {
        case let .status(status): TransportOutcome(status: status, error: nil, latency: answer.delay, bytes: 0)
        case .timeout: TransportOutcome(status: nil, error: .timedOut, latency: timeout, bytes: 0)
        case .refused: TransportOutcome(status: nil, error: .connectionRefused, latency: answer.delay, bytes: 0, failedBeforeSending: true)
        case .reset: TransportOutcome(status: nil, error: .connectionReset, latency: answer.delay, bytes: 0)
        }
    }

    /// The dispatcher tests' form of `outcome(_:)`.
    public static func outcome(_ status: Int?, latency: Duration = .zero, timeout: Duration = .seconds(5)) -> TransportOutcome {
        outcome(answer(status, delay: latency), timeout: timeout)
    }
}
