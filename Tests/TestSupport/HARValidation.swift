import Foundation
import Testing

/// The HAR 1.2 check every test of a HAR vplay wrote uses (the HAR writer's unit tests and the end-to-end runs).
public enum HARValidation {
    /// Checks a HAR against `schemas/har-1.2.schema.json` (with Python's `jsonschema`), and what a schema cannot
    /// say: a real `startedDateTime`, `time` the sum of the timings that are not -1, every time in whole
    /// microseconds, `content.mimeType` the response's `Content-Type` when it has one, `log.browser` and `log.pages`
    /// present (har2tree and haralyzer need them) and every entry's `pageref` a page. Returns the entries.
    public static func validate(_ data: Data) async throws -> [[String: Any]] {
        let complaints = try await ExternalValidators.jsonSchema(data, schemaFile: "har-1.2.schema.json")
        #expect(complaints == "", "the HAR is valid against schemas/har-1.2.schema.json")
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let log = try #require(root["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(creator["name"] is String && creator["version"] is String)
        #expect((log["browser"] as? [String: Any])?["name"] is String)
        let pages = try #require(log["pages"] as? [[String: Any]], "log.pages")
        let pageIDs = Set(pages.compactMap { $0["id"] as? String })
        let entries = try #require(log["entries"] as? [[String: Any]])
        #expect(entries.isEmpty || pages.count == 1, "one page, the session")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for entry in entries {
            let started = try #require(entry["startedDateTime"] as? String)
            let date = try #require(formatter.date(from: started), "startedDateTime \(started) is ISO 8601")
            #expect(date.timeIntervalSince1970 > 1_000_000_000, "startedDateTime \(started) is a real send time")
            let time = try #require(entry["time"] as? Double)
            let request = try #require(entry["request"] as? [String: Any])
            for key in ["method", "url", "httpVersion"] { #expect(request[key] is String, "request.\(key)") }
            for key in ["cookies", "headers", "queryString"] { #expect(request[key] is [Any], "request.\(key)") }
            #expect(request["headersSize"] is Int && request["bodySize"] is Int)
            #expect(URL(string: request["url"] as? String ?? "")?.scheme == "http")
            let response = try #require(entry["response"] as? [String: Any])
            #expect(response["status"] is Int && response["statusText"] is String && response["httpVersion"] is String)
            #expect(response["cookies"] is [Any] && response["redirectURL"] is String)
            let headers = try #require(response["headers"] as? [[String: String]])
            let content = try #require(response["content"] as? [String: Any])
            #expect(content["size"] is Int)
            let mimeType = try #require(content["mimeType"] as? String)
            if let contentType = headers.first(where: { $0["name"]?.lowercased() == "content-type" })?["value"] {
                #expect(mimeType == contentType)
            }
            #expect(response["headersSize"] is Int && response["bodySize"] is Int)
            #expect(entry["cache"] is [String: Any])
            #expect(pageIDs.contains(entry["pageref"] as? String ?? ""), "pageref names a page")
            let timings = try #require(entry["timings"] as? [String: Double])
            let micros = timings.values.filter { $0 >= 0 }.map { ($0 * 1000).rounded() }
            #expect(micros.reduce(0, +) == (time * 1000).rounded(), "time is the sum of the timings")
            for value in Array(timings.values) + [time] {
                #expect("\(value)" == "\((value * 1000).rounded() / 1000)", "\(value) ms is rounded to the microsecond")
            }
        }
        return entries
    }
}
