/// A fault pattern compiled once for matching on every request: a prefix, or a `*` glob split into its
/// literal pieces. Works on UTF-8 bytes, because targets are matched as received, never decoded.
struct SinkPathPattern: Sendable {
    /// The literal pieces between the `*`s; a single piece and no `*` means a prefix pattern.
    private let pieces: [[UInt8]]
    private let isGlob: Bool
    /// Whether the pattern is matched against the whole target (it contains `?`) rather than the path.
    let matchesTarget: Bool

    init(_ pattern: String) {
        isGlob = pattern.contains("*")
        matchesTarget = pattern.contains("?")
        pieces = pattern.utf8.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map(Array.init)
    }

    /// Whether a request with this `path` and `target` (path plus `?query`) matches.
    func matches(path: String, target: String) -> Bool {
        let subject = Array((matchesTarget ? target : path).utf8)
        guard isGlob else { return subject.starts(with: pieces[0]) }

        // Anchored at both ends: the first piece is a prefix, the last a suffix, the middle ones are found
        // left to right, each as early as possible (which is optimal for `*`-only globs).
        let first = pieces[0]
        let last = pieces[pieces.count - 1]
        guard subject.count >= first.count + last.count,
            subject.starts(with: first),
            subject[(subject.count - last.count)...].elementsEqual(last)
        else { return false }
        var position = first.count
        let end = subject.count - last.count
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = Self.firstIndex(of: piece, in: subject, from: position, before: end) else {
                return false
            }
            position = found + piece.count
        }
        return true
    }

    private static func firstIndex(of piece: [UInt8], in subject: [UInt8], from start: Int, before end: Int) -> Int? {
        guard end - start >= piece.count else { return nil }
        var index = start
        while index + piece.count <= end {
            if subject[index..<(index + piece.count)].elementsEqual(piece) { return index }
            index += 1
        }
        return nil
    }
}
