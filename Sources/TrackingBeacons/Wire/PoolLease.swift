/// What a request gets from its host's pool.
enum PoolLease<Connection> {
    /// A slot on an open connection.
    case slot(Connection)
    /// Leave to open a new connection (counted already); its other `depth - 1` slots go to the pool once open.
    case open
}

extension PoolLease: Sendable where Connection: Sendable {}
