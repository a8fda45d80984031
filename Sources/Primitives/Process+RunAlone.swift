import Foundation

extension Process {
    /// One launch at a time in this process.
    private static let launching = Locked(())

    /// `run()`, never at the same time as another launch through this method.
    ///
    /// Foundation's `Process` on Linux learns that its child has exited when a socket it hands the child (and only
    /// that child) is closed. A child launched from another thread in that moment inherits the socket too, and then the
    /// first child's exit goes unnoticed until the second one ends (swift-corelibs-foundation#4795): its termination
    /// handler waits, its zombie stays. Seen in the test suite: a `vplay --dry-run` launched beside a long helper
    /// waited 600 s, as long as the helper. Launching one at a time leaves no such moment (a launch takes
    /// milliseconds).
    public func runAlone() throws {
        try Self.launching.withLock { _ in try run() }
    }
}
