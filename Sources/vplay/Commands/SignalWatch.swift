import Dispatch
import Foundation

/// SIGINT and SIGTERM: the first stops the session (which then writes its report and logs, marked interrupted);
/// a second one exits at once with 128 + the signal number.
final class SignalWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var first: Int32?
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
            lock.unlock()
            exit(128 + number)
        }
        first = number
        let action = self.action
        lock.unlock()
        FileHandle.standardError.write(Data("vplay: \(number == SIGINT ? "interrupted" : "terminated"); writing what happened so far (again to quit at once)\n".utf8))
        action?()
    }
}
