import Foundation

/// `KEY:WEIGHT,…`, as a fleet's mixes are written (`--mix`, `--network-mix`): each key once, whole weights from 0 to
/// 1,000,000, at least one positive; and the pick of a uniform draw among them.
enum WeightedList {
    /// The keys and weights of `text`, or a message naming `option` and what is wrong.
    static func parse<Key>(_ text: String, option: String, expected: String, key: (String) -> Key?,
                           same: (Key, Key) -> Bool, name: (Key) -> String) -> Result<[(key: Key, weight: Int)], Message> {
        var shares: [(key: Key, weight: Int)] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: ":", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let parsed = key(parts[0]) else { return .failure(Message("\(option) '\(item)': expected \(expected)")) }
            guard let weight = Int(parts[1]), weight >= 0, weight <= 1_000_000 else {
                return .failure(Message("\(option) '\(item)': the weight must be a whole number from 0 to 1000000"))
            }
            guard !shares.contains(where: { same($0.key, parsed) }) else { return .failure(Message("\(option) names \(name(parsed)) twice")) }
            shares.append((parsed, weight))
        }
        guard shares.contains(where: { $0.weight > 0 }) else { return .failure(Message("\(option) needs at least one positive weight")) }
        return .success(shares)
    }

    /// The position a uniform draw in `0..<sum(weights)` falls on.
    static func pick(_ weights: [Int], draw: Int) -> Int {
        var rest = draw
        for (position, weight) in weights.enumerated() {
            if rest < weight { return position }
            rest -= weight
        }
        return weights.lastIndex { $0 > 0 }!
    }

    struct Message: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }
}
