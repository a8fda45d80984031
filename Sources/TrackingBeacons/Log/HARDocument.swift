import Primitives
import Foundation

/// The beacon log as an HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/), which Charles,
/// browser dev tools and HAR viewers open. One entry per attempt that was sent (dry-run records and beacons the
/// session ended before sending are not requests); a failed attempt has status 0 and its reason in
/// `response._error` (the HAR convention for custom fields).
///
/// `request.url` is the URL actually requested: with `--sink` that is the embedded sink's, and the beacon's own URL
/// is in `_vplay.beaconURL`. The response is the final one after redirects, with its real headers and
/// `content.mimeType` from its `Content-Type` (`x-unknown` when there is none, as browsers write); the redirect hops
/// are listed in `_vplay.redirects`, and `redirectURL` is the `Location` of a final answer that is itself a redirect.
/// vplay's own facts (event, source, playhead, session clock) are in `comment` and `_vplay`.
public struct HARDocument: Encodable, Sendable {
    public struct Log: Encodable, Sendable {
        public var version = "1.2"
        public var creator: Creator
        public var pages: [String] = []
        public var entries: [Entry]
        public var comment: String?
    }
    public struct Creator: Encodable, Sendable { public var name: String; public var version: String }
    public struct NameValue: Encodable, Sendable { public var name: String; public var value: String }
    public struct Entry: Encodable, Sendable {
        public var startedDateTime: String
        /// Total time in ms.
        public var time: Double
        public var request: Request
        public var response: Response
        public var cache: [String: String] = [:]
        public var timings: Timings
        public var comment: String
        public var _vplay: VPlayFields
    }
    public struct Request: Encodable, Sendable {
        public var method = "GET"
        public var url: String
        public var httpVersion = "HTTP/1.1"
        public var cookies: [NameValue] = []
        public var headers: [NameValue]
        public var queryString: [NameValue]
        public var headersSize = -1
        public var bodySize = 0
    }
    public struct Response: Encodable, Sendable {
        public var status: Int
        public var statusText: String
        public var httpVersion = "HTTP/1.1"
        public var cookies: [NameValue] = []
        public var headers: [NameValue] = []
        public var content: Content
        public var redirectURL = ""
        public var headersSize = -1
        public var bodySize: Int
        public var _error: String?
    }
    public struct Content: Encodable, Sendable { public var size: Int; public var mimeType: String }
    public struct Timings: Encodable, Sendable {
        public var send: Double = 0
        public var wait: Double
        public var receive: Double = 0
    }
    public struct VPlayFields: Encodable, Sendable {
        public var event: String
        public var source: String
        public var template: String
        public var playhead: Double
        public var clock: Double
        public var attempt: Int
        /// The beacon's URL (after macro expansion) when the request went elsewhere (the embedded sink).
        public var beaconURL: String?
        /// URLs requested after the first, when redirects were followed.
        public var redirects: [String]?
    }

    public var log: Log

    /// Builds the archive from the records that were sent (dry-run records and beacons never sent have no request
    /// to show).
    public init(records: [BeaconRecord], userAgent: String, creatorVersion: String = "0.1", comment: String? = nil) {
        let entries = records.compactMap { record -> Entry? in
            guard record.wasSent, let sentAt = record.sentAt else { return nil }
            let millis = record.latency.map { BeaconRecord.seconds($0) * 1000 } ?? 0
            let requested = record.requestedURL ?? record.url
            let headers = record.responseHeaders.map { NameValue(name: $0.name, value: $0.value) }
            let redirectURL = record.status.map { (300..<400).contains($0) } == true ? Self.header("Location", in: record.responseHeaders) ?? "" : ""
            let redirected = record.redirects.isEmpty ? "" : ", redirected \(record.redirects.count)×"
            return Entry(
                startedDateTime: MacroFormat.timestamp(millisecondsSince1970: sentAt).replacingOccurrences(of: "+00:00", with: "Z"),
                time: millis,
                request: Request(url: requested, headers: [NameValue(name: "User-Agent", value: userAgent)], queryString: Self.query(of: requested)),
                response: Response(status: record.status ?? 0, statusText: record.status.map { Self.reason($0) } ?? "", headers: headers,
                                   content: Content(size: record.bytes ?? 0, mimeType: Self.header("Content-Type", in: record.responseHeaders) ?? "x-unknown"),
                                   redirectURL: redirectURL, bodySize: record.bytes ?? 0, _error: record.error),
                timings: Timings(wait: millis),
                comment: "\(record.event) from \(record.source) at playhead \(MacroFormat.playhead(record.playhead))\(redirected)",
                _vplay: VPlayFields(event: record.event, source: record.source, template: record.template,
                                    playhead: BeaconRecord.seconds(record.playhead), clock: BeaconRecord.seconds(record.clock), attempt: record.attempt,
                                    beaconURL: requested == record.url ? nil : record.url, redirects: record.redirects.isEmpty ? nil : record.redirects))
        }
        log = Log(creator: Creator(name: "vplay", version: creatorVersion), entries: entries, comment: comment)
    }

    /// The first value of header `name` (case-insensitive).
    static func header(_ name: String, in headers: [HeaderField]) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The document as JSON.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    static func query(of url: String) -> [NameValue] {
        guard let components = URLComponents(string: url) else { return [] }
        return (components.percentEncodedQueryItems ?? []).map { NameValue(name: $0.name, value: $0.value ?? "") }
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 404: "Not Found"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        default: ""
        }
    }
}
