import Foundation
import Testing

/// The HAR 1.2 check every test of a HAR vplay wrote uses (the HAR writer's unit tests and the end-to-end runs).
public enum HARValidation {
    /// Checks a HAR against the HAR 1.2 structure (http://www.softwareishard.com/blog/har-12-spec/): required fields
    /// and their types, a real `startedDateTime`, `time` the sum of the timings, `content.mimeType` the response's
    /// `Content-Type` when it has one. Returns the entries.
    public static func validate(_ data: Data) throws -> [[String: Any]] {
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let log = try #require(root["log"] as? [String: Any])
        #expect(log["version"] as? String == "1.2")
        let creator = try #require(log["creator"] as? [String: Any])
        #expect(creator["name"] is String && creator["version"] is String)
        let entries = try #require(log["entries"] as? [[String: Any]])
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
            let timings = try #require(entry["timings"] as? [String: Double])
            let send = try #require(timings["send"]), wait = try #require(timings["wait"]), receive = try #require(timings["receive"])
            #expect(abs(send + wait + receive - time) < 0.001, "time is the sum of the timings")
        }
        return entries
    }
}
