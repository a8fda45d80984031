import AdSession
import Foundation
import Primitives

extension SessionKit {
    /// Plays a stream by its client-side tracking document on the kit's doubles (the document answered from `tags`,
    /// the stream on a virtual clock): every beacon planned and every record kept, as `run` does for a VAST tag.
    public func runTrackedStream(_ configuration: SessionConfiguration, playback: TrackedStreamPlayback = TrackedStreamPlayback()) async -> SessionRun {
        let (environment, transport) = environment(configuration)
        let records = Locked<[SessionRecord]>([])
        let summary = await TrackedStreamRunner(configuration: configuration, playback: playback, environment: environment).run { record in
            records.withLock { $0.append(record) }
        }
        return SessionRun(summary: summary, records: records.withLock { $0 }, sent: transport.urls)
    }
}
