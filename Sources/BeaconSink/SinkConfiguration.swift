/// How a ``BeaconSink`` listens, misbehaves and logs.
///
/// The sink is a test tool: it answers anyone who connects and keeps every hit in memory. It binds to
/// loopback by default; bind it elsewhere only on a network you trust, for a test that needs it.
public struct SinkConfiguration: Sendable {
    /// Address to listen on. Default `127.0.0.1` (loopback only), so a sink started for a test is not
    /// reachable from other machines.
    public var host: String
    /// TCP port to listen on; `0` (the default) lets the system pick a free one, which
    /// ``BeaconSink/start()`` returns.
    public var port: Int
    /// Faults to show to matching requests, tried in order; empty (the default) answers every beacon 200.
    public var faults: [SinkFault]
    /// Where to write the JSON Lines hit log, one ``SinkHit`` per line; `nil` (the default) keeps hits in
    /// memory only. The file is opened for appending (created if missing) by ``BeaconSink/start()``, so
    /// the hits of an earlier run stay; each line is handed to
    /// the kernel with one `write(2)` as the hit is recorded, so a crash of the process loses nothing
    /// already recorded.
    public var logPath: String?
    /// A folder whose regular files the sink serves at `/media/<relative path>` (GET and HEAD, with byte
    /// ranges), so a player can fetch an ad's media from it under the same faults as its beacons; `nil`
    /// (the default) serves none, and `/media/…` is answered like any beacon. Resolved by
    /// ``BeaconSink/start()``; nothing outside the folder is ever served (docs/guides/measurement.md, "The sink as a media server").
    public var mediaDirectory: String?
    /// Fixed documents the sink serves at their paths (GET and HEAD, 200, not recorded as hits): e.g. the reward
    /// verifier keys at `/__vplay/ssv/verifier-keys.json`. Empty by default.
    public var documents: [String: SinkDocument] = [:]
    /// Whether the sink keeps every hit in memory for ``BeaconSink/hits()`` and `/__vplay/hits` (the default). A
    /// fleet of millions of beacons turns it off: it reconciles each hit as it arrives (``onHit``) and keeps only
    /// what is unmatched, the hit log (``logPath``) streams every hit to a file, and ``BeaconSink/hitCount`` still
    /// counts them. Off, ``BeaconSink/hits()`` and `/__vplay/hits` are empty.
    public var keepsHits = true
    /// Called with every hit as it is recorded, before its answer is sent (so a client that has its answer knows its
    /// hit was seen), on the connection's event loop: keep it short. nil (the default) calls nothing.
    public var onHit: (@Sendable (SinkHit) -> Void)?

    /// A configuration; every parameter defaults to the documented default of its property.
    public init(
        host: String = "127.0.0.1", port: Int = 0, faults: [SinkFault] = [], logPath: String? = nil,
        mediaDirectory: String? = nil
    ) {
        self.host = host
        self.port = port
        self.faults = faults
        self.logPath = logPath
        self.mediaDirectory = mediaDirectory
    }
}

