import AdSession
import Primitives
import Foundation

/// The write end of SignalWatch's pipe, for the signal handler (which can capture nothing).
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// SIGINT and SIGTERM for the whole process: a signal handler writes the signal's number into a pipe (the one thing
/// a handler may safely do), and a thread of vplay's own reads it and acts.
///
/// Why not a dispatch signal source: on Linux libdispatch reads signals through a signalfd, which only sees a signal
/// that every thread blocks; the main thread (in libdispatch's `sigsuspend`) and FFmpeg's decoder threads do not, so
/// the kernel could hand Ctrl-C to one of them and it was lost. A handler runs on whichever thread receives it.
///
/// Without a watcher, a signal exits at once with 128 + its number (probe, inspect). With one (`run`, `sink`): the
/// first signal calls its action (the session stops and writes its report and logs, marked interrupted); a second
/// one exits at once, unless it comes within `grace` of the first: GNU `timeout`, and a terminal's Ctrl-C to a
/// process group, deliver one signal twice (to the process and to its group), and that echo must not throw away the
/// report the first one is writing.
final class SignalWatch: @unchecked Sendable {
    /// Signals this soon after the first are the same request. 1 s: far longer than an echo takes, far shorter than
    /// a person pressing Ctrl-C again because vplay seems stuck.
    static let grace: Duration = .seconds(1)

    private static let lock = Locked(())
    nonisolated(unsafe) private static var current: SignalWatch?

    private let lock = Locked(())
    private var first: Int32?
    private var firstAt: ContinuousClock.Instant?
    /// What `grace` is measured on.
    private let clock: ContinuousClock
    private var action: (@Sendable () -> Void)?

    /// Installs the handlers and starts the thread that acts on them. Call once, first thing in `main`.
    static func install() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return }
        signalPipe = fds[1]
        let reader = fds[0]
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipe, &byte, 1)
            }
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
        // Unblock them too, whatever mask the parent process gave us (test runners and CI agents may block them).
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        let waiter = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(reader, &byte, 1)
                if count == 1 { deliver(Int32(byte)) } else if count < 0 && errno != EINTR { return }
            }
        }
        waiter.name = "vplay signals"
        waiter.start()
    }

    private static func deliver(_ number: Int32) {
        let watch = lock.withLock { _ in current }
        guard let watch else { exit(128 + number) }
        watch.received(number)
    }

    /// Makes this the process's watcher: signals from now on go to it.
    init(clock: ContinuousClock = LiveTools.monotonicClock()) {
        self.clock = clock
        Self.lock.withLock { _ in Self.current = self }
    }

    /// The first signal's number, once one came.
    var received: Int32? {
        lock.withLock { _ in first }
    }

    func onFirst(_ action: @escaping @Sendable () -> Void) {
        let already = lock.withLock { _ -> Bool in
            self.action = action
            return first != nil
        }
        if already { action() }
    }

    private func received(_ number: Int32) {
        enum Step { case echo, again, first((@Sendable () -> Void)?) }
        let step = lock.withLock { _ -> Step in
            if first != nil {
                return firstAt.map { clock.now - $0 < Self.grace } ?? false ? .echo : .again
            }
            first = number
            firstAt = clock.now
            return .first(self.action)
        }
        let action: (@Sendable () -> Void)?
        switch step {
        case .echo: return
        case .again: exit(128 + number)
        case let .first(registered): action = registered
        }
        // Checked, like every output: FileHandle.write trapped when stderr was closed or a broken pipe.
        // On a terminal, the note starts by clearing the line: a live status line may be on it.
        if isatty(STDERR_FILENO) == 1 { StandardStreams.error("\r\u{1B}[K") }
        StandardStreams.note("\(number == SIGINT ? "interrupted" : "terminated"); writing what happened so far (again to quit at once)")
        action?()
    }
}
