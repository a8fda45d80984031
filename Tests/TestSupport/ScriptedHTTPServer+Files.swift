import Foundation

/// The file server: what Python's `http.server` did for the tests, and what FFmpeg's `http` protocol asks of a server.
extension ScriptedHTTPServer {
    /// A file server for the folder `root`: each request target maps to a file under it (percent-decoded; a `.` or
    /// `..` component, or a NUL, is a 404, so nothing outside `root` is served). A folder requested without its
    /// trailing slash is a `301` to the same target with one (query kept), as Python's `http.server` answers, so
    /// relative URLs in what it serves resolve inside the folder; with the slash it serves the folder's `index.html`
    /// (there is no folder listing: 404). Files are sent as `Reply.file` describes, with real `Range` answers.
    /// `failing`: a request target answered 404 instead (a segment missing mid-ad).
    public convenience init(files root: String, tls: Bool = false, failing: String? = nil) throws {
        let folder = URL(fileURLWithPath: root, isDirectory: true)
        try self.init(tls: tls) { request in
            request.target == failing ? .status(404) : Self.fileReply(for: request.target, in: folder)
        }
    }

    public static func fileReply(for target: String, in root: URL) -> Reply {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let rawPath = String(parts[0])
        guard let path = rawPath.removingPercentEncoding, path.hasPrefix("/"), !path.contains("\0") else { return .status(404) }
        let components = path.split(separator: "/")
        guard !components.contains(where: { $0 == "." || $0 == ".." }) else { return .status(404) }
        let url = components.reduce(root) { $0.appendingPathComponent(String($1)) }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) else { return .status(404) }
        if isFolder.boolValue {
            guard path.hasSuffix("/") else {
                return .redirect(to: rawPath + "/" + (parts.count > 1 ? "?\(parts[1])" : ""), status: 301)
            }
            let index = url.appendingPathComponent("index.html")
            return FileManager.default.fileExists(atPath: index.path) ? .file(index.path) : .status(404)
        }
        return path.hasSuffix("/") ? .status(404) : .file(url.path)
    }

    /// The answer to a request for the file `path` whose `Range` header (if any) is `range`: status, headers, body.
    static func fileResponse(_ path: String, range: String?) -> (status: Int, headers: [Header], body: Data) {
        guard let data = FileManager.default.contents(atPath: path) else { return (404, [], Data()) }
        var headers = [Header("Content-Type", contentType(of: path)), Header("Accept-Ranges", "bytes")]
        // An empty file has no satisfiable range: it is answered whole (a server may ignore Range, RFC 9110 14.2).
        guard let range, !data.isEmpty, let bytes = byteRange(range, size: data.count) else { return (200, headers, data) }
        guard bytes.lowerBound < data.count else {
            headers.append(Header("Content-Range", "bytes */\(data.count)"))
            return (416, headers, Data())
        }
        headers.append(Header("Content-Range", "bytes \(bytes.lowerBound)-\(bytes.upperBound)/\(data.count)"))
        return (206, headers, data.subdata(in: bytes.lowerBound..<(bytes.upperBound + 1)))
    }

    /// The one range of `bytes=FIRST-[LAST]` or `bytes=-SUFFIX`, its last byte clamped to the file; nil for anything
    /// else (several ranges, another unit, a malformed value), which is then ignored: the whole file is sent.
    static func byteRange(_ value: String, size: Int) -> ClosedRange<Int>? {
        guard value.hasPrefix("bytes="), !value.contains(",") else { return nil }
        let ends = value.dropFirst("bytes=".count).split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard ends.count == 2 else { return nil }
        if ends[0].isEmpty {
            guard let suffix = Int(ends[1]), suffix > 0 else { return nil }
            return max(0, size - suffix)...(size - 1)
        }
        guard let first = Int(ends[0]), first >= 0 else { return nil }
        guard !ends[1].isEmpty else { return first...max(first, size - 1) }
        guard let last = Int(ends[1]), last >= first else { return nil }
        return first...max(first, min(last, size - 1))
    }

    /// The content type Python's `mimetypes` gives the extensions the tests serve; `application/octet-stream` for
    /// the rest and for names without one (the beacon recorders' empty files).
    static func contentType(of path: String) -> String {
        let types = [
            "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm", "ts": "video/mp2t",
            "m3u8": "application/vnd.apple.mpegurl", "xml": "application/xml", "html": "text/html", "htm": "text/html",
            "txt": "text/plain", "json": "application/json", "gif": "image/gif", "png": "image/png",
        ]
        return types[URL(fileURLWithPath: path).pathExtension.lowercased()] ?? "application/octet-stream"
    }
}
