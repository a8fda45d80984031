import BeaconSink
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite struct SinkHitJSONTests {
    private let awkward = SinkHit(
        sequence: 42, connection: 3, method: "GET", target: "/p?a=\"b\"&c=\\d\u{1}\t\n\u{7F}é😀/",
        path: "/p", query: "a=\"b\"&c=\\d\u{1}\t\n\u{7F}é😀/", userAgent: nil, host: "127.0.0.1:8080",
        receivedAtMilliseconds: -5, status: nil, fault: "reset@*")

    @Test func hitJSON_withQuotesControlCharactersAndEmoji_decodesBackToTheSameHit() throws {
        let decoded = try JSONDecoder().decode(SinkHit.self, from: Data(awkward.jsonBytes))
        #expect(decoded == awkward)
    }

    @Test func hitJSON_isOneLineWithSortedKeysAndExplicitNulls() {
        let text = String(decoding: awkward.jsonBytes, as: UTF8.self)
        #expect(!text.contains("\n"))
        #expect(text.hasPrefix(#"{"connection":3,"device":null,"fault":"reset@*","host":"127.0.0.1:8080","method":"GET","path":"/p","#))
        #expect(text.hasSuffix(#""sequence":42,"status":null,"target":"/p?a=\"b\"&c=\\d\u0001\t\n\u007fé😀/","userAgent":null}"#))
    }

    /// Issue 42: a server beaconing for a device says which (X-Device-IP, X-Device-User-Agent, X-Forwarded-For), and
    /// the hit keeps it, sorted like every other key.
    @Test func hitJSON_keepsTheDevicesFields() throws {
        var hit = awkward
        hit.device = SinkHit.DeviceHeaders(ip: "203.0.113.7", userAgent: "Roku/\"12\"", forwardedFor: nil)
        let text = String(decoding: hit.jsonBytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"connection":3,"device":{"forwardedFor":null,"ip":"203.0.113.7","userAgent":"Roku/\"12\""},"fault":"#), "\(text)")
        #expect(try JSONDecoder().decode(SinkHit.self, from: Data(hit.jsonBytes)) == hit)
    }

    /// Issue 37, item 18: the instant in ISO 8601 UTC with milliseconds, as every other vplay output writes one,
    /// beside the milliseconds since 1970 that earlier logs carry.
    @Test func hitJSON_saysWhenInISO8601_besideTheMilliseconds() {
        var hit = awkward
        hit.receivedAtMilliseconds = 1_764_650_000_123
        let text = String(decoding: hit.jsonBytes, as: UTF8.self)
        #expect(text.contains(#""receivedAt":"2025-12-02T04:33:20.123Z","receivedAtMilliseconds":1764650000123,"#), "\(text)")
        #expect(String(decoding: awkward.jsonBytes, as: UTF8.self).contains(#""receivedAt":"1969-12-31T23:59:59.995Z""#))
    }

    @Test func hitJSONArray_ofNoneAndOfTwo_decodes() throws {
        #expect(SinkHit.jsonArray([]) == Array("[]".utf8))
        var second = awkward
        second.sequence = 43
        second.status = 200
        let decoded = try JSONDecoder().decode([SinkHit].self, from: Data(SinkHit.jsonArray([awkward, second])))
        #expect(decoded == [awkward, second])
    }
}
