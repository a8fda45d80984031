import Foundation

/// One `--map https://host/path/=./local/dir/` rule: URLs starting with `prefix` are read from `directory`.
public struct URLMapping: Sendable, Hashable, Codable {
    /// The URL prefix, compared with the requested URL's `absoluteString` (case-sensitive, as written).
    public var prefix: String
    /// The local directory (absolute, standardized).
    public var directory: URL

    public init(prefix: String, directory: URL) {
        self.prefix = prefix
        self.directory = directory.standardizedFileURL
    }

    /// Parses `PREFIX=DIR`, splitting at the first `=` after the URL's `://` (so the prefix cannot contain `=`,
    /// the directory can). A relative directory is resolved against `base`. Returns `nil` when there is no `=`,
    /// the prefix is not an http(s) URL, or the directory is empty.
    public init?(argument: String, relativeTo base: URL) {
        guard let schemeEnd = argument.range(of: "://"),
              let eq = argument[schemeEnd.upperBound...].firstIndex(of: "=") else { return nil }
        let prefix = String(argument[..<eq])
        let dir = String(argument[argument.index(after: eq)...])
        let lower = prefix.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), !dir.isEmpty else { return nil }
        let directory = dir.hasPrefix("/") ? URL(fileURLWithPath: dir, isDirectory: true)
                                           : base.appendingPathComponent(dir, isDirectory: true)
        self.init(prefix: prefix, directory: directory)
    }

    /// The local file for `url`, or `nil` if the prefix does not match or the rest of the URL would leave the
    /// directory. The rest of the URL (after the prefix) drops its `?query` and `#fragment` (recorded tags are
    /// stored without cache-busters), is percent-decoded, and must consist of plain path components: no `..`,
    /// no `.`, no backslash or NUL. Symbolic links are resolved and the result must still be inside `directory`.
    public func localFile(for url: URL) -> URL? {
        let absolute = url.absoluteString
        guard absolute.hasPrefix(prefix) else { return nil }
        var rest = Substring(absolute.dropFirst(prefix.count))
        if let cut = rest.firstIndex(where: { $0 == "?" || $0 == "#" }) { rest = rest[..<cut] }
        guard let decoded = String(rest).removingPercentEncoding else { return nil }
        let components = decoded.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.isEmpty else { return nil }
        for c in components where c == ".." || c == "." || c.contains("\\") || c.contains("\0") {
            return nil
        }
        var file = directory
        for c in components { file.appendPathComponent(String(c)) }
        let realDir = directory.resolvingSymlinksInPath().path
        let realFile = file.resolvingSymlinksInPath().path
        let dirPrefix = realDir.hasSuffix("/") ? realDir : realDir + "/"
        guard realFile.hasPrefix(dirPrefix) else { return nil }
        return file
    }
}
