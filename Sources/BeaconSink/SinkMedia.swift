#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder `vplay sink --media DIR` serves at `/media/<relative path>`, and the rules that keep the
/// serving inside it: a phone on the network talks to this server, so a request must never reach a file
/// outside the folder.
///
/// - The path after `/media/` is percent-decoded once; a bad escape, a NUL, an empty, `.` or `..`
///   component is 404.
/// - The joined path is resolved with `realpath(3)` (every symlink followed) and must still lie under the
///   folder's own real path; a symlink that leads out is 404.
/// - The resolved file is opened with `O_NOFOLLOW | O_NONBLOCK` (so a FIFO never blocks the event loop)
///   and must be a regular file (`fstat`): FIFOs, devices, sockets and folders are 404.
struct SinkMediaLibrary: Sendable {
    /// The folder's real path, without a trailing `/` (except for `/` itself).
    let root: String
    /// Where requests for media start.
    static let prefix = "/media/"

    /// The library for `directory`, which must be a folder the process can search.
    init(directory: String) throws(BeaconSinkError) {
        guard let resolved = Self.realPath(directory) else {
            throw .mediaDirectoryUnusable(path: directory, reason: "cannot resolve it (errno \(errno))")
        }
        var info = stat()
        guard stat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .mediaDirectoryUnusable(path: directory, reason: "not a folder")
        }
        root = resolved
    }

    /// What `GET`/`HEAD` of `encodedPath` (the request path after ``prefix``, as received) with the
    /// `Range` header `range` answers. An opened file is the caller's to close.
    func lookup(encodedPath: Substring, range: String?) -> SinkMediaLookup {
        guard let relative = Self.decodedRelativePath(encodedPath) else { return .notFound }
        let base = root.hasSuffix("/") ? root : root + "/"
        guard let resolved = Self.realPath(base + relative), resolved.hasPrefix(base) else { return .notFound }
        let descriptor = open(resolved, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return .notFound }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            return .notFound
        }
        let size = Int(info.st_size)
        switch SinkByteRange(header: range, size: size) {
        case .unsatisfiable:
            close(descriptor)
            return .unsatisfiable(size: size)
        case .whole:
            let file = SinkMediaFile(descriptor: descriptor)
            return .file(file, SinkMediaAnswer(status: 200, contentType: Self.contentType(of: resolved), fileSize: size, start: 0, length: size))
        case .range(let start, let end):
            let file = SinkMediaFile(descriptor: descriptor)
            return .file(file, SinkMediaAnswer(status: 206, contentType: Self.contentType(of: resolved), fileSize: size, start: start, length: end - start + 1))
        }
    }

    /// The Content-Type for a file name: by extension, case-insensitive.
    static func contentType(of path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        switch name[name.index(after: dot)...].lowercased() {
        case "mp4", "m4v": return "video/mp4"
        case "m4a": return "audio/mp4"
        case "webm": return "video/webm"
        case "mov": return "video/quicktime"
        case "ts": return "video/mp2t"
        case "m4s": return "video/iso.segment"
        // Tags, manifests and pages a served folder holds beside its media (a VAST tag served as octet-stream is
        // refused by browsers' players).
        case "xml": return "application/xml"
        case "mpd": return "application/dash+xml"
        case "m3u8": return "application/vnd.apple.mpegurl"
        case "json": return "application/json"
        case "html", "htm": return "text/html; charset=utf-8"
        case "js": return "text/javascript"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "vtt": return "text/vtt"
        default: return "application/octet-stream"
        }
    }

    /// `encoded` percent-decoded once, or nil when it has a bad escape, a NUL, is not UTF-8, or has an
    /// empty, `.` or `..` component (after decoding, so `%2e%2e` is refused too).
    static func decodedRelativePath(_ encoded: Substring) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(encoded.utf8.count)
        var iterator = encoded.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else { return nil }
        let components = text.split(separator: "/", omittingEmptySubsequences: false)
        guard components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
