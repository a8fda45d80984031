import Primitives
import PlayerEngine
import TrackingBeacons

/// `*` matches any run of characters (including none); everything else literally.
struct Glob: Sendable {
    let parts: [Substring]
    init(_ pattern: String) { parts = pattern.split(separator: "*", omittingEmptySubsequences: false) }

    func matches(_ text: String) -> Bool {
        guard parts.count > 1 else { return text == parts.first.map(String.init) ?? "" }
        var rest = Substring(text)
        guard rest.hasPrefix(parts[0]) else { return false }
        rest = rest.dropFirst(parts[0].count)
        for part in parts.dropFirst().dropLast() where !part.isEmpty {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(parts.last!)
    }
}
