/// A connection's pool record, read and changed only by its pool's machine, under the pool's lock.
final class PoolMembership: @unchecked Sendable {
    /// Opened for the pool and not retired.
    var live = false
    /// The event loop it was opened for (nil: off any loop).
    var loop: ObjectIdentifier?
}
