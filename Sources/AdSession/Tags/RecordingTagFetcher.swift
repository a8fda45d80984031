import Foundation
import VAST

/// Passes each fetch through and records what came back.
struct RecordingTagFetcher: AdTagFetcher {
    let inner: any AdTagFetcher
    let recorder: TagRecorder

    init(_ inner: any AdTagFetcher, recorder: TagRecorder) {
        self.inner = inner
        self.recorder = recorder
    }

    func fetch(_ url: URL, timeout: Duration) async throws -> FetchedTag {
        let tag = try await inner.fetch(url, timeout: timeout)
        recorder.record(RecordedTag(url: url, tag: tag))
        return tag
    }
}
