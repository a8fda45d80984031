import Networking
import Primitives
import Foundation
import NIOHTTP1

/// The beacon log as an HTTP Archive (HAR 1.2, http://www.softwareishard.com/blog/har-12-spec/), which Charles,
/// browser dev tools and HAR viewers open; `schemas/har-1.2.schema.json` is the check the tests apply.
///
/// One entry per HTTP request that was made: an attempt that followed two redirects is three entries, each with its
/// own status, reason phrase, headers, cookies (from `Set-Cookie`), `redirectURL`, sizes and timings, sharing
/// `_vplay` (event, source, template, playhead, clock, attempt, `beaconURL`) with `_vplay.hop` its place (0 for the
/// first request). Dry-run records and beacons the session ended before sending are not requests.
///
/// A request that got no answer has status 0, an empty `statusText` and its reason in `response._error`, as browsers
/// write a failed request; a redirect target that was not requested (refused, a cycle, one too many) is such an entry
/// too. A connection that failed (refused, unreachable, connect timeout) spent its time in `timings.connect`, with
/// `wait` 0. Times are ms rounded to the microsecond; `-1` marks a timing not measured. `request.headers` are the
/// fields sent; `headersSize` counts each head's bytes, `bodySize` the body's bytes received (`-1` for a redirect's,
/// which is not read). `log.pages` has one page, the session, which every entry names in `pageref`.
///
/// `request.url` is the URL actually requested: with `--sink` that is the embedded sink's, and the beacon's own URL
/// is in `_vplay.beaconURL`.
public struct HARDocument: Encodable, Sendable {
    public struct Log: Encodable, Sendable {
        public var version = "1.2"
        public var creator: Creator
        public var browser: Creator
        public var pages: [Page]
        public var entries: [Entry]
        public var comment: String?
    }
    public struct Creator: Encodable, Sendable { public var name: String; public var version: String }
    public struct Page: Encodable, Sendable {
        public var startedDateTime: String
        public var id: String
        public var title: String
        public var pageTimings = PageTimings()
    }
    /// Page load times, which a beacon session does not have (-1: not applicable).
    public struct PageTimings: Encodable, Sendable { public var onContentLoad = -1; public var onLoad = -1 }
    public struct NameValue: Encodable, Sendable, Equatable { public var name: String; public var value: String }
    public struct Cookie: Encodable, Sendable, Equatable {
        public var name: String
        public var value: String
        public var path: String?
        public var domain: String?
        /// ISO 8601, from `Expires` or `Max-Age`.
        public var expires: String?
        public var httpOnly: Bool?
        public var secure: Bool?
    }
    public struct Entry: Encodable, Sendable {
        public var pageref: String
        public var startedDateTime: String
        /// Total time in ms: the sum of the timings that are not -1.
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
        public var cookies: [Cookie] = []
        public var headers: [NameValue]
        public var queryString: [NameValue]
        public var headersSize: Int
        public var bodySize = 0
    }
    public struct Response: Encodable, Sendable {
        public var status: Int
        public var statusText: String
        public var httpVersion: String
        public var cookies: [Cookie]
        public var headers: [NameValue]
        public var content: Content
        public var redirectURL: String
        public var headersSize: Int
        public var bodySize: Int
        public var _error: String?
    }
    public struct Content: Encodable, Sendable { public var size: Int; public var mimeType: String }
    /// Phases in ms; -1 for one not measured (`blocked`, `dns`, `ssl`; `connect` unless the connection failed).
    public struct Timings: Encodable, Sendable {
        public var blocked: Double = -1
        public var dns: Double = -1
        public var connect: Double
        public var send: Double = 0
        public var wait: Double
        public var receive: Double
        public var ssl: Double = -1
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
        /// The request's place in its attempt: 0 for the first, 1 for the first redirect's target, …
        public var hop: Int
    }

    /// The one page: a session.
    public static let pageID = "session-1"

    public var log: Log

    /// Builds the archive from the records that were sent (dry-run records and beacons never sent have no request
    /// to show). `title` names the session's page (the tag).
    public init(records: [BeaconRecord], userAgent: String, title: String = "vplay session",
                creatorVersion: String = VPlayVersion.current, comment: String? = nil) {
        let entries = records.filter(\.wasSent).flatMap { Self.entries(of: $0, userAgent: userAgent) }
        let first = records.compactMap { $0.wasSent ? $0.sentAt : nil }.min()
        let pages = first.map { [Page(startedDateTime: Self.dateTime($0), id: Self.pageID, title: title)] } ?? []
        let creator = Creator(name: "vplay", version: creatorVersion)
        log = Log(creator: creator, browser: creator, pages: pages, entries: entries, comment: comment)
    }

    /// The document as JSON.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// `duration` in ms rounded to the microsecond: the one rounding every HAR time goes through, so a time is
    /// `13.485`, never `13.485000000000001` (sums are taken in whole microseconds, before this).
    static func milliseconds(microseconds: Int64) -> Double { Double(microseconds) / 1000 }

    /// `duration` in whole microseconds (rounded half away from zero).
    static func microseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000 + Int64((Double(attoseconds) / 1e12).rounded())
    }

    /// ms since 1970 as HAR's ISO 8601 date and time, in UTC.
    static func dateTime(_ millisecondsSince1970: Int64) -> String {
        MacroFormat.timestamp(millisecondsSince1970: millisecondsSince1970).replacingOccurrences(of: "+00:00", with: "Z")
    }

    /// The first value of header `name` (case-insensitive).
    static func header(_ name: String, in headers: [HeaderField]) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    static func query(of url: String) -> [NameValue] {
        guard let components = URLComponents(string: url) else { return [] }
        return (components.percentEncodedQueryItems ?? []).map { NameValue(name: $0.name, value: $0.value ?? "") }
    }

    /// The standard reason phrase of `status` (empty for a code without one).
    static func reason(_ status: Int) -> String {
        let phrase = HTTPResponseStatus(statusCode: status).reasonPhrase
        return phrase == "\(status)" ? "" : phrase
    }
}
