import Foundation

/// OpenRTB 2.x substitution macros (2.6 §4.4): `${AUCTION_PRICE}` and the others, replaced in the markup and the
/// notice URLs "without regard for syntax correctness" (the value as it is), or encoded when the macro names an
/// encoding after a colon. The spec defines no encoding but gives Base64 (`${AUCTION_PRICE:B64}`) as its example;
/// vplay applies that one and leaves any other (an exchange's own encryption) as written, saying so. A value vplay
/// cannot know is `AUDIT`, the spec's best practice "when rendering markup for test or ad quality purposes".
struct AuctionMacros: Sendable, Equatable {
    /// The value of each macro by name (`AUCTION_PRICE`, …).
    var values: [String: String]

    /// Every macro OpenRTB 2.6 defines.
    static let names = ["AUCTION_ID", "AUCTION_BID_ID", "AUCTION_IMP_ID", "AUCTION_SEAT_ID", "AUCTION_AD_ID", "AUCTION_PRICE", "AUCTION_CURRENCY",
                        "AUCTION_MBR", "AUCTION_LOSS", "AUCTION_MIN_TO_WIN", "AUCTION_MULTIPLIER", "AUCTION_IMP_TS"]

    /// The value of a macro vplay cannot know (OpenRTB 2.6 §4.4, best practice).
    static let audit = "AUDIT"

    /// `text` with its auction macros replaced; `left` names each one left as written (an unknown name, an
    /// encoding vplay does not apply), once, in the order met. Macros named in `keeping` stay as written, unnamed:
    /// they are filled later (`${AUCTION_IMP_TS}` of a notice, at the moment it fires).
    func expand(_ text: String, keeping: Set<String> = []) -> (text: String, left: [String]) {
        guard text.contains("${") else { return (text, []) }
        var out = "", left: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "${") {
            out += rest[..<open.lowerBound]
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(of: "}"), after.distance(from: after.startIndex, to: close) <= 64 else {
                out += "${"
                rest = after
                continue
            }
            let inside = after[..<close]
            let written = "${\(inside)}"
            rest = after[after.index(after: close)...]
            let parts = inside.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0])
            guard name.hasPrefix("AUCTION_"), !keeping.contains(name) else { out += written; continue }
            guard let value = values[name] else {
                if !left.contains(written) { left.append(written) }
                out += written
                continue
            }
            if parts.count == 1 {
                out += value
            } else if parts[1].uppercased() == "B64" {
                out += Data(value.utf8).base64EncodedString()
            } else {
                if !left.contains(written) { left.append(written) }
                out += written
            }
        }
        return (out + rest, left)
    }

    /// The macro a notice carries the moment it fires in: the impression's time, ms since 1970.
    static let impressionTime = "AUCTION_IMP_TS"

    /// A price as OpenRTB writes it: a decimal, without a trailing `.0`.
    static func decimal(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }
}
