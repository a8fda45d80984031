import Foundation
import Primitives
import VAST

/// Plays a stream by its client-side tracking document (`vplay --tracking-doc DOC`): the document fetched once (and
/// polled when asked), its avails' beacons fired on a simulated stream clock through the session's dispatcher, the
/// report in the summary's `tracking`. Everything outside the session comes from its `SessionEnvironment`.
public struct TrackedStreamRunner: Sendable {
    public let configuration: SessionConfiguration
    public let playback: TrackedStreamPlayback
    public let environment: SessionEnvironment

    /// - Parameter environment: what the session reaches outside itself; `.live(configuration)` when nil.
    public init(configuration: SessionConfiguration, playback: TrackedStreamPlayback = TrackedStreamPlayback(), environment: SessionEnvironment? = nil) {
        self.configuration = configuration
        self.playback = playback
        self.environment = environment ?? .live(configuration)
    }

    /// The document alone, fetched and read as the run would (for `vplay audit --tracking-doc`).
    public func document() async -> Result<TrackingDocument, TrackingDocumentError> {
        let loader = TrackingDocumentLoader(configuration: configuration, environment: environment)
        let (url, fetcher) = loader.source
        let loaded = await loader.load(url, fetcher: fetcher)
        await environment.shutdown()
        return loaded
    }

    /// The stream's schedule without playing it (`vplay inspect --tracking-doc`): every avail, ad and event with the
    /// document's time and vplay's rule, whose each is (the player's, the server's in hybrid reporting, the viewer's),
    /// and the findings (an assumed length among them); nothing fired, so the player's events are `notReached`.
    public static func schedule(_ document: TrackingDocument, url: String, playback: TrackedStreamPlayback = TrackedStreamPlayback()) -> TrackedStreamReport {
        TrackedStreamState(document: document, url: url, playback: playback).report
    }

    /// Runs the stream to its end (or the viewer's); an unplayable document ends it with `adError` and the report's
    /// `documentError`.
    public func run(observer: @escaping @Sendable (SessionRecord) async -> Void) async -> SessionSummary {
        let loader = TrackingDocumentLoader(configuration: configuration, environment: environment)
        let (url, fetcher) = loader.source
        let loaded = await loader.load(url, fetcher: fetcher)
        let outlet = await AdSessionRunner.Outlet.open(configuration, environment: environment, observer: observer)
        var summary = SessionSummary(outcome: .completed, dryRun: configuration.dryRun)
        summary.network = configuration.network
        switch loaded {
        case let .failure(error):
            var report = TrackedStreamReport(documentURL: url.absoluteString, reporting: playback.reporting, streamDuration: playback.streamDuration ?? .zero,
                                             streamDurationGiven: playback.streamDuration != nil)
            report.documentError = error
            summary.tracking = report
            summary.outcome = Task.isCancelled ? .interrupted : .adError
        case let .success(document):
            let session = TrackedStreamSession(configuration: configuration, playback: playback, environment: environment, loader: loader)
            let report = await session.run(document, url: url, outlet: outlet)
            summary.tracking = report
            summary.clock = report.content.last?.end ?? .zero
            if Task.isCancelled { summary.outcome = .interrupted }
        }
        await outlet.close(&summary, configuration: configuration, environment: environment)
        return summary
    }
}
