import Glibc

/// A file as the system knows it, to tell whether two paths name the same file: its device and inode when it
/// exists, and its path with every symbolic link and `.`/`..` resolved (for one that does not exist yet: its
/// folder's resolved path and its name).
public struct FileIdentity: Sendable, Equatable {
    public var path: String
    public var device: UInt64?
    public var inode: UInt64?

    public init(_ path: String) {
        var status = stat()
        if stat(path, &status) == 0 {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            self.path = Self.realPath(path) ?? path
        } else {
            let (directory, name) = Self.split(path)
            let resolved = Self.realPath(directory) ?? directory
            self.path = (resolved == "/" ? "" : resolved) + "/" + name
        }
    }

    /// Whether both name the same file.
    public func isSame(as other: FileIdentity) -> Bool {
        if let device, let inode, let otherDevice = other.device, let otherInode = other.inode {
            return device == otherDevice && inode == otherInode
        }
        return path == other.path
    }

    /// Whether this file is `directory` or anywhere under it.
    public func isInside(_ directory: FileIdentity) -> Bool {
        isSame(as: directory) || path.hasPrefix(directory.path == "/" ? "/" : directory.path + "/")
    }

    /// The folder and the last component of `path` (the folder `.` for a bare name).
    static func split(_ path: String) -> (directory: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let directory = trimmed[..<slash]
        return (directory.isEmpty ? "/" : String(directory), String(trimmed[trimmed.index(after: slash)...]))
    }

    /// `realpath(3)` of `path`, nil when it cannot be resolved.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
