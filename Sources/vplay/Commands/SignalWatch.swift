import Dispatch
import Foundation

/// SIGINT and SIGTERM: the first stops the session (which then writes its report and logs, marked interrupted);
/// a second one exits at once with 128 + the signal number, unless it comes within `grace` of the first: GNU
/// `timeout`, and a terminal's Ctrl-C to a process group, deliver one signal twice (to the process and to its
/// group), and that echo must not throw away the report the first one is writing.
final class SignalWatch: @unchecked Sendable {
    /// Signals this soon after the first are the same request. 1 s: far longer than an echo takes, far shorter than
    /// a person pressing Ctrl-C again because vplay seems stuck.
    static let grace: Duration = .seconds(1)

    private let lock = NSLock()
    private var first: Int32?
    private var firstAt: ContinuousClock.Instant?
    private var action: (@Sendable () -> Void)?
    private var sources: [DispatchSourceSignal] = []

    init() {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.received(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// The first signal's number, once one came.
    var received: Int32? {
        lock.lock()
        defer { lock.unlock() }
        return first
    }

    func onFirst(_ action: @escaping @Sendable () -> Void) {
        lock.lock()
        self.action = action
        let already = first != nil
        lock.unlock()
        if already { action() }
    }

    private func received(_ number: Int32) {
        lock.lock()
        if first != nil {
            let echo = firstAt.map { ContinuousClock.now - $0 < Self.grace } ?? false
            lock.unlock()
            if echo { return }
            exit(128 + number)
        }
        first = number
        firstAt = ContinuousClock.now
        let action = self.action
        lock.unlock()
        FileHandle.standardError.write(Data("vplay: \(number == SIGINT ? "interrupted" : "terminated"); writing what happened so far (again to quit at once)\n".utf8))
        action?()
    }
}
