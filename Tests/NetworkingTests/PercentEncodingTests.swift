import Foundation
import Networking
import Primitives
import Testing

/// `PercentEncoding.append`, the macro expander's way to encode into the URL it builds, and `rfc3986`, built on it:
/// both give what Foundation gives allowing only the unreserved characters.
@Suite struct PercentEncodingTests {
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    @Test func percentEncoding_isFoundationsWithOnlyTheUnreservedCharactersAllowed() throws {
        var generator = SplitMix64(seed: 22)
        let pieces = ["a", "Z", "0", "-", ".", "_", "~", ":", "/", "?", "#", "[", "]", "@", "!", "$", "&", "'", "(", ")", "*", "+", ",", ";",
                      "=", "%", " ", "\u{7F}", "\u{0}", "é", "ß", "日本", "👩‍👩‍👧", "\u{301}", "00:00:05.000"]
        var cases = pieces + ["", "plain-value_1.2~3", "http://x.example/a b?c=d&e=f#g"]
        for _ in 0..<500 {
            cases.append((0..<Int(generator.next() % 12)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined())
        }
        for value in cases {
            var appended = Array("prefix=".utf8)
            PercentEncoding.append(value, to: &appended)
            let foundation = try #require(value.addingPercentEncoding(withAllowedCharacters: Self.unreserved))
            #expect(String(decoding: appended, as: UTF8.self) == "prefix=" + foundation, "\(value.debugDescription)")
            #expect(PercentEncoding.rfc3986(value) == foundation, "\(value.debugDescription)")
        }
    }
}
