import Foundation
import Primitives

/// One request a device (or vplay) sent, as a capture records it: its URL and, when the capture has one, when it was
/// sent (ms since 1970).
public struct CapturedRequest: Sendable, Equatable {
    /// The URL requested, as captured.
    public var url: String
    /// When it was sent, ms since 1970; nil when the capture has no time for it.
    public var sentAt: Int64?
    /// Its position in the capture (1-based), for messages.
    public var index: Int

    /// A request as captured; `index` is its 1-based position in the capture.
    public init(url: String, sentAt: Int64?, index: Int) {
        self.url = url
        self.sentAt = sentAt
        self.index = index
    }

    /// The capture formats `vplay audit` reads.
    public enum Format: String, Sendable, CaseIterable {
        /// HAR 1.2 (Charles, browser dev tools, vplay's `--har`): `log.entries[].request.url`, `startedDateTime`.
        case har
        /// `vplay sink --log` JSON Lines: `target` on `host`, `receivedAtMilliseconds`.
        case sinkLog
        /// vplay's `--beacons` JSON Lines: each final attempt's `url` and `sentAt` (ISO 8601, or the integer ms since
        /// 1970 of logs written before it was).
        case beacons
    }

    /// Why a capture file could not be read; `description` is the message for the user.
    public struct ReadError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// The most a capture file may hold: a day of a busy device's traffic is a few MB.
    public static let maxBytes = 256 * 1024 * 1024

    /// Reads a capture file.
    public static func read(_ path: String, format: Format) throws(ReadError) -> [CapturedRequest] {
        let data: Data
        do {
            // A device (`/dev/zero` never ends: it was read until the size check failed as "permission"), a folder
            // or a socket is no capture (a link to a file is: `stat` follows it).
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
                throw ReadError(description: "\(path): not a regular file (\(Self.describe(mode: info.st_mode))); a capture is a file")
            }
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
            guard size <= maxBytes else { throw ReadError(description: "\(path): \(size) bytes, more than the \(maxBytes) a capture may have") }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as ReadError {
            throw error
        } catch {
            throw ReadError(description: "\(path): cannot read it (\(error.localizedDescription))")
        }
        return try parse(data, format: format, name: path)
    }

    /// What a file that is not a regular file is, from its `st_mode`.
    static func describe(mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFIFO: "a FIFO"
        default: "not a file"
        }
    }

    /// Parses a capture's bytes.
    public static func parse(_ data: Data, format: Format, name: String = "capture") throws(ReadError) -> [CapturedRequest] {
        switch format {
        case .har:
            guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let log = root["log"] as? [String: Any],
                  let entries = log["entries"] as? [Any] else {
                throw ReadError(description: "\(name): not a HAR file (no log.entries)")
            }
            return entries.enumerated().compactMap { offset, entry in
                guard let entry = entry as? [String: Any], let request = entry["request"] as? [String: Any], let url = request["url"] as? String else { return nil }
                let method = (request["method"] as? String)?.uppercased() ?? "GET"
                guard method == "GET" || method == "POST" else { return nil }
                return CapturedRequest(url: url, sentAt: time((entry["startedDateTime"] as? String).flatMap(ISO8601Time.milliseconds)), index: offset + 1)
            }
        case .sinkLog, .beacons:
            var requests: [CapturedRequest] = []
            for (offset, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
                guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                    throw ReadError(description: "\(name): line \(offset + 1) is not a JSON object")
                }
                if format == .sinkLog {
                    guard let target = object["target"] as? String else { continue }
                    let host = object["host"] as? String ?? "127.0.0.1"
                    requests.append(CapturedRequest(url: "http://\(host)\(target)", sentAt: milliseconds(object["receivedAtMilliseconds"]),
                                                    index: offset + 1))
                } else {
                    // One record per attempt: the final one stands for the beacon; one never sent is not in a capture.
                    // A `sentAt` of null (or none) is a beacon never sent; one out of range is a request with no time.
                    guard let url = object["url"] as? String, object["finalAttempt"] as? Bool != false, object["dryRun"] as? Bool != true,
                          let sentAt = object["sentAt"], !(sentAt is NSNull) else { continue }
                    requests.append(CapturedRequest(url: url, sentAt: sentAtMilliseconds(sentAt), index: offset + 1))
                }
            }
            return requests
        }
    }

    /// A beacon log's `sentAt` as ms since 1970: an ISO 8601 string (`2026-11-22T12:00:00.123Z`), or the integer
    /// milliseconds older logs wrote; nil for null or anything else.
    static func sentAtMilliseconds(_ value: Any?) -> Int64? {
        if let text = value as? String { return time(ISO8601Time.milliseconds(text)) }
        return milliseconds(value)
    }

    /// The latest time a capture may carry: the end of year 9999 (ms since 1970). Captured times are untrusted
    /// input: bounded here, every difference the audit takes between two of them fits an `Int64` many times over.
    public static let latestTime: Int64 = 253_402_300_799_999

    /// A captured time kept only when it lies in 1970…9999; nil (no time: the request still counts, its timing is
    /// not judged) otherwise.
    static func time(_ milliseconds: Int64?) -> Int64? {
        guard let milliseconds, (0...latestTime).contains(milliseconds) else { return nil }
        return milliseconds
    }

    /// A JSON number of milliseconds (integer or fractional, rounded), bounded as `time`: `1e300`, `-1e300`,
    /// `9223372036854775807` or NaN are no time, never a trap or a wrapped value.
    static func milliseconds(_ value: Any?) -> Int64? {
        guard let number = value as? NSNumber else { return nil }
        let double = number.doubleValue
        guard double.isFinite, double >= 0, double <= Double(latestTime) else { return nil }
        return time(Int64(double.rounded()))
    }
}
