/// What the host pool needs of a connection: whether it is still open, the event loop it runs on, and the pool's
/// record of it (kept in the connection, so the pool finds whether it is live without a lookup, twice a beacon).
protocol PooledConnection: AnyObject, Sendable {
    var isActive: Bool { get }
    var eventLoopID: ObjectIdentifier { get }
    var membership: PoolMembership { get }
}
