import Glibc

/// Every file vplay writes — stdout, the beacon log, the HAR, reports, the Adcash state, the sink's hit log — is
/// written through this one type, so each write is checked the same way and nothing at an output path is destroyed:
///
/// - `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: written to that open descriptor (not reopened,
///   which would start again at offset 0 of a file stdout goes to).
/// - A character device (`/dev/null`, `/dev/full`, a terminal) or a FIFO: opened for writing as it is, never
///   created, truncated or renamed over, so the node stays.
/// - A regular file, or nothing yet: written to a temporary file beside it and renamed over it on `commit()`, so a
///   failed or interrupted write leaves what was there (a symbolic link to a file stays a link: its target is
///   replaced). `appending` instead appends to it in place.
///
/// Every `write(2)` is retried on `EINTR`, a short write and `EAGAIN`; the first failure is kept and returned by
/// every later write and by `commit()`, so a caller can carry on with its other outputs and report this one once.
/// A broken pipe needs SIGPIPE ignored (vplay's `main` does) to come back as `EPIPE` rather than kill the process.
public final class OutputFile: Sendable {
    /// How the path is written, decided from what is there.
    public enum Kind: Sendable, Equatable {
        /// An open descriptor of this process.
        case descriptor(Int32)
        /// A character device or a FIFO, written where it is.
        case inPlace
        /// A regular file or none yet: a temporary file beside `target`, renamed over it.
        case replaced(target: String)
        /// A regular file or none yet, appended to (created if missing).
        case appended
    }

    /// The output as the user named it, for messages (`--report out.json`).
    public let name: String
    public let kind: Kind

    private struct State {
        var descriptor: Int32 = -1
        var temporary: String?
        var failure: OutputError?
        var done = false
    }

    private let state: Locked<State>

    /// vplay's standard output.
    public static let standardOutput = OutputFile(descriptor: 1, name: "stdout")
    /// vplay's standard error: where failures of the other outputs are told (a failure here has nowhere to go).
    public static let standardError = OutputFile(descriptor: 2, name: "stderr")

    /// Opens `/dev/null` read-only on any of descriptors 0, 1 and 2 that is closed (`vplay >&-`), so the next file
    /// or pipe vplay opens does not become its stdout, and a write to a closed stdout fails (EBADF) and is reported.
    /// Call first thing in `main`, before anything opens a descriptor.
    public static func holdStandardDescriptors() {
        for descriptor in Int32(0)...2 where fcntl(descriptor, F_GETFD) < 0 {
            let opened = open("/dev/null", O_RDONLY)
            if opened >= 0, opened != descriptor {
                dup2(opened, descriptor)
                close(opened)
            }
        }
    }

    private init(descriptor: Int32, name: String) {
        self.name = name
        kind = .descriptor(descriptor)
        state = Locked(State(descriptor: descriptor))
    }

    /// Opens the output at `path` (named `option path` in messages): the temporary file, the device or the FIFO
    /// (a FIFO must have its reader already: vplay does not wait for one).
    public init(_ path: String, option: String, appending: Bool = false) throws(OutputError) {
        name = option.isEmpty ? path : "\(option) \(path)"
        let kind = try Self.kind(of: path, name: name, appending: appending)
        self.kind = kind
        var opened = State()
        switch kind {
        case let .descriptor(descriptor):
            opened.descriptor = descriptor
        case .inPlace:
            opened.descriptor = try Self.openInPlace(path, name: name)
        case let .replaced(target):
            (opened.descriptor, opened.temporary) = try Self.openTemporary(beside: target, name: name)
        case .appended:
            let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else { throw OutputError(output: name, errno: errno) }
            opened.descriptor = descriptor
        }
        state = Locked(opened)
    }

    /// Throws when an output could not be opened at `path`; leaves nothing behind and changes nothing there (a
    /// FIFO is not opened, so a reader started later still sees the run's output).
    public static func check(_ path: String, option: String) throws(OutputError) {
        let name = "\(option) \(path)"
        switch try kind(of: path, name: name, appending: false) {
        case let .descriptor(descriptor):
            let flags = fcntl(descriptor, F_GETFL)
            guard flags >= 0 else { throw OutputError(output: name, errno: errno) }
            guard flags & O_ACCMODE != O_RDONLY else { throw OutputError(output: name, reason: "descriptor \(descriptor) is open for reading only") }
        case .inPlace:
            guard access(path, W_OK) == 0 else { throw OutputError(output: name, errno: errno) }
        case let .replaced(target):
            if access(target, F_OK) == 0, access(target, W_OK) != 0 { throw OutputError(output: name, errno: errno) }
            let (descriptor, temporary) = try openTemporary(beside: target, name: name)
            close(descriptor)
            unlink(temporary)
        case .appended:
            break
        }
    }

    /// Whether the output at `path` is written where it is (a descriptor, a device, a FIFO) rather than replaced:
    /// such an output cannot destroy a file, so it may share its path with an input or another output.
    public static func writesInPlace(_ path: String) -> Bool {
        switch try? kind(of: path, name: path, appending: false) {
        case .descriptor, .inPlace: true
        default: false
        }
    }

    /// Writes all of `bytes`, or throws the first failure of this output (also one from an earlier write).
    public func write(_ bytes: some Collection<UInt8>) throws(OutputError) {
        let failure: OutputError? = state.withLock { state in
            if let failure = state.failure { return failure }
            guard !state.done else { return OutputError(output: name, reason: "already closed") }
            let error = Array(bytes).withUnsafeBytes { Self.writeAll($0, to: state.descriptor) }
            if let error { state.failure = OutputError(output: name, errno: error) }
            return state.failure
        }
        if let failure { throw failure }
    }

    public func write(_ text: String) throws(OutputError) {
        try write(text.utf8)
    }

    /// The first failure so far, if any.
    public var failure: OutputError? { state.withLock { $0.failure } }

    /// Finishes the output: a replaced file is synced, closed and renamed over its target (with the mode the file
    /// there had); a device or FIFO is closed. Throws the first failure of any write, or of these steps (then the
    /// target is left as it was).
    public func commit() throws(OutputError) {
        let failure: OutputError? = state.withLock { state in
            guard !state.done else { return state.failure }
            state.done = true
            switch kind {
            case .descriptor:
                return state.failure
            case .inPlace, .appended:
                if close(state.descriptor) != 0, state.failure == nil, errno != EINTR {
                    state.failure = OutputError(output: name, errno: errno)
                }
                return state.failure
            case let .replaced(target):
                let temporary = state.temporary ?? ""
                var error: Int32?
                if state.failure == nil {
                    var existing = stat()
                    let mode = stat(target, &existing) == 0 ? existing.st_mode & 0o7777 : nil
                    if let mode, fchmod(state.descriptor, mode) != 0 { error = errno }
                    if error == nil, fsync(state.descriptor) != 0 { error = errno }
                }
                if close(state.descriptor) != 0, error == nil, errno != EINTR { error = errno }
                if state.failure == nil, error == nil, rename(temporary, target) != 0 { error = errno }
                if let error, state.failure == nil { state.failure = OutputError(output: name, errno: error) }
                if state.failure != nil { unlink(temporary) }
                return state.failure
            }
        }
        if let failure { throw failure }
    }

    /// Gives the output up: a replaced file's temporary file is removed and its target left as it was.
    public func discard() {
        state.withLock { state in
            guard !state.done else { return }
            state.done = true
            switch kind {
            case .descriptor: break
            case .inPlace, .appended: close(state.descriptor)
            case .replaced:
                close(state.descriptor)
                if let temporary = state.temporary { unlink(temporary) }
            }
        }
    }

    /// Writes `text` as the whole of the output at `path`, and commits it.
    public static func write(_ text: String, to path: String, option: String) throws(OutputError) {
        let file = try OutputFile(path, option: option)
        do {
            try file.write(text)
            try file.commit()
        } catch {
            file.discard()
            throw error
        }
    }

    // MARK: - How a path is written

    /// `path` as an open descriptor of this process (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/3`), if it is one.
    static func descriptor(named path: String) -> Int32? {
        let (directory, name) = FileIdentity.split(path)
        guard let resolved = FileIdentity.realPath(directory) else { return nil }
        if resolved == "/dev" {
            switch name {
            case "stdin": return 0
            case "stdout": return 1
            case "stderr": return 2
            default: return nil
            }
        }
        guard resolved == "/proc/\(getpid())/fd" else { return nil }
        return Int32(name)
    }

    static func kind(of path: String, name: String, appending: Bool) throws(OutputError) -> Kind {
        guard !path.isEmpty else { throw OutputError(output: name, reason: "no path") }
        if let descriptor = descriptor(named: path) { return .descriptor(descriptor) }
        var status = stat()
        guard stat(path, &status) == 0 else {
            guard errno == ENOENT else { throw OutputError(output: name, errno: errno) }
            return appending ? .appended : .replaced(target: path)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            return appending ? .appended : .replaced(target: FileIdentity.realPath(path) ?? path)
        case S_IFCHR, S_IFIFO:
            return .inPlace
        case S_IFDIR:
            throw OutputError(output: name, reason: "it is a directory")
        default:
            throw OutputError(output: name, reason: "not a regular file, character device or FIFO")
        }
    }

    private static func openInPlace(_ path: String, name: String) throws(OutputError) -> Int32 {
        // Non-blocking, so a FIFO with no reader is an error now rather than a wait nobody can see; then blocking,
        // so a slow reader slows the writes instead of failing them.
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw errno == ENXIO ? OutputError(output: name, reason: "a FIFO with no reader", errno: ENXIO) : OutputError(output: name, errno: errno)
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// A new file `.NAME.vplay-XXXXXX` in `target`'s folder (so the rename stays on one file system), with the
    /// mode a new file gets (0666 less the umask).
    private static func openTemporary(beside target: String, name: String) throws(OutputError) -> (Int32, String) {
        let (directory, file) = FileIdentity.split(target)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let suffix = String(generator.next(upperBound: UInt64(1) << 40), radix: 36)
            let temporary = (directory == "/" ? "" : directory) + "/.\(file).vplay-\(suffix)"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
            if descriptor >= 0 { return (descriptor, temporary) }
            guard errno == EEXIST else { throw OutputError(output: name, errno: errno) }
        }
        throw OutputError(output: name, reason: "no free temporary name in \(directory)")
    }

    /// Writes every byte, retrying on `EINTR`, short writes and `EAGAIN` (a non-blocking descriptor inherited as
    /// stdout); returns the errno of a failure.
    static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                return errno
            }
            offset += written
        }
        return nil
    }
}

