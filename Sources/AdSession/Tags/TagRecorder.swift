import Primitives
import VAST

/// Keeps every tag document a session fetches, in order (`--bundle`).
public final class TagRecorder: Sendable {
    /// The documents with the time the resolver measured for each (`hops`: the session's chain), for a bundle.
    public func documents(timedBy hops: [ResolutionHop]) -> [RecordedTag] {
        documents.map { document in
            var document = document
            if let hop = hops.first(where: { $0.url == document.url }) {
                let (seconds, attoseconds) = hop.elapsed.components
                document.elapsedNanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
            }
            return document
        }
    }

    private let recorded = Locked<[RecordedTag]>([])

    public init() {}

    public var documents: [RecordedTag] { recorded.withLock { $0 } }

    func record(_ document: RecordedTag) {
        recorded.withLock { list in
            if !list.contains(where: { $0.url == document.url }) { list.append(document) }
        }
    }
}
