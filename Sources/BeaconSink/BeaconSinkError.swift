/// Every error the BeaconSink module throws or reports. ``code`` is stable across releases, so scripts
/// and tests can branch on it; ``description`` is for people.
public enum BeaconSinkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A command-line fault spec could not be parsed. `spec` is the text as given; `reason` says what is wrong.
    case invalidFaultSpec(spec: String, reason: String)
    /// ``BeaconSink/start()`` was called on a sink that is already started or stopped: a sink runs once.
    case alreadyStarted
    /// The listening socket could not be bound (port in use, host not local, …).
    case bindFailed(host: String, port: Int, reason: String)
    /// The JSON Lines hit log could not be opened or written; `errno` is the C error number.
    case logFailed(path: String, errno: Int32)
    /// The folder given to serve media from (``SinkConfiguration/mediaDirectory``) cannot be served.
    case mediaDirectoryUnusable(path: String, reason: String)

    /// A short stable identifier of the case, for scripts: `invalid-fault-spec`, `already-started`,
    /// `bind-failed`, `log-failed`, `media-directory-unusable`.
    public var code: String {
        switch self {
        case .invalidFaultSpec: "invalid-fault-spec"
        case .alreadyStarted: "already-started"
        case .bindFailed: "bind-failed"
        case .logFailed: "log-failed"
        case .mediaDirectoryUnusable: "media-directory-unusable"
        }
    }

    /// One sentence for people, naming what failed (the spec, the address, the path).
    public var description: String {
        switch self {
        case .invalidFaultSpec(let spec, let reason):
            "invalid fault spec \"\(spec)\": \(reason)"
        case .alreadyStarted:
            "the beacon sink was already started; a sink starts once"
        case .bindFailed(let host, let port, let reason):
            "the beacon sink could not listen on \(host):\(port): \(reason)"
        case .logFailed(let path, let errno):
            "the beacon sink could not write its hit log \(path) (errno \(errno))"
        case .mediaDirectoryUnusable(let path, let reason):
            "the beacon sink cannot serve media from \(path): \(reason)"
        }
    }
}
