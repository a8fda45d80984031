import Glibc

/// A value behind a pthread mutex: vplay's one lock type, for state shared across threads (clocks, the sink's
/// recorder, the beacon log, signal handling; `Locked(())` where only the section needs guarding).
///
/// Swift's `Mutex` would do the same job, but on Linux its contended path has the kernel take the lock
/// (`FUTEX_LOCK_PI`) inside the uninstrumented `libswiftSynchronization`, so ThreadSanitizer sees no synchronisation
/// and reports every contended access as a race (`scripts/sanitize.sh thread`); `pthread_mutex_lock` is one
/// ThreadSanitizer intercepts, so its reports stay about real races.
///
/// The value lives behind a pointer, not in a stored `var`: a class's stored `var` is checked for exclusive access
/// at run time on every access (`swift_beginAccess`, a few dozen instructions each, several times a beacon), and
/// the mutex already makes each access exclusive.
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let value: UnsafeMutablePointer<Value>

    public init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
        value.deinitialize(count: 1)
        value.deallocate()
    }

    /// Runs `body` with the value, holding the lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value.pointee)
    }
}
