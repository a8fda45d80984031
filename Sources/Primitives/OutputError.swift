import Glibc

/// An output that could not be written: which one, and the system's reason.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The output as the user named it: `--report out.json`, `stdout`.
    public var output: String
    /// `strerror` of the failure, or what is wrong with the path.
    public var reason: String
    /// The C error number, 0 when the failure is not the system's.
    public var errno: Int32

    public init(output: String, reason: String, errno: Int32 = 0) {
        self.output = output
        self.reason = reason
        self.errno = errno
    }

    /// The system's error `code` at `output`.
    init(output: String, errno code: Int32) {
        self.init(output: output, reason: String(cString: strerror(code)), errno: code)
    }

    public var description: String { "\(output): cannot write it (\(reason))" }
}
