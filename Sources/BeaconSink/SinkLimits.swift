/// The sizes past which the sink refuses a request instead of recording it, so that one
/// misbehaving client cannot make the sink hold an unbounded amount of memory.
public enum SinkLimits {
    /// Largest request head the sink parses, in bytes: 64 KiB (65,536) for the request target and all header
    /// names and values together, and for any single one of them.
    ///
    /// A tracking pixel URL is rarely over 8 KiB even with every macro expanded; 64 KiB leaves room for
    /// ad servers that pack whole VAST payloads into a query string while still bounding the parser's
    /// buffer. A larger head is answered `431 Request Header Fields Too Large` and the connection closed.
    /// It is not recorded as a hit, because its target was never fully read.
    public static let maximumHeadBytes = 64 * 1024

    /// Most header fields one request may carry: 1,000. Real beacon clients send about ten; the limit
    /// stops a head made of many tiny fields from costing a large header table.
    public static let maximumHeaderFieldCount = 1_000

    /// Largest request body the sink reads and discards, in bytes: 1 MiB (1,048,576).
    ///
    /// Beacons are GETs without a body; anything past 1 MiB is a client bug or abuse. Such a request is
    /// recorded with status 413, answered `413 Content Too Large`, and the connection closed. Body bytes
    /// are counted, never kept.
    public static let maximumBodyBytes = 1024 * 1024

    /// Size of the one shared zero-filled chunk that a ``SinkFault/Kind/body(bytes:)`` fault sends
    /// repeatedly, in bytes: 64 KiB. A large fault body therefore costs no more memory than one chunk.
    public static let bodyChunkBytes = 64 * 1024

    /// Largest body a ``SinkFault/Kind/body(bytes:)`` fault may ask for, in bytes: 1 GiB. Bigger only
    /// slows the test that asked for it.
    public static let maximumFaultBodyBytes = 1024 * 1024 * 1024

    /// Bytes of the pixel a ``SinkFault/Kind/stall`` fault sends before stalling: 6, the `GIF89a`
    /// signature, so a client has a started body that never ends.
    public static let stallBodyBytes = 6

    /// Backlog of the listening socket: 256 pending connections, enough for a fleet that opens many
    /// pooled connections at once without the kernel refusing some.
    public static let listenBacklog: Int32 = 256
}
