import Findings
import Foundation
import Primitives
import VAST

/// Plays a VMAP document (`vplay --vmap DOC`), or whatever document a tag turns out to be (`--vast`: a VMAP document
/// is played as VMAP, anything else as VAST by `AdSessionRunner`, without asking the server twice). Everything outside
/// the session comes from its `SessionEnvironment`, as for one ad.
public struct VMAPSessionRunner: Sendable {
    /// Whether the document must be VMAP (`--vmap`), is told by its root element (`--vast`), or is an HLS content
    /// playlist whose interstitials are the breaks (`--interstitials`).
    public enum Mode: Sendable { case vmap, detect, interstitials }

    public let configuration: SessionConfiguration
    public let playback: VMAPPlayback
    public let mode: Mode
    public let environment: SessionEnvironment

    /// - Parameter environment: what the session reaches outside itself; `.live(configuration)` when nil.
    public init(configuration: SessionConfiguration, playback: VMAPPlayback = VMAPPlayback(), mode: Mode, environment: SessionEnvironment? = nil) {
        self.configuration = configuration
        self.playback = playback
        self.mode = mode
        self.environment = environment ?? .live(configuration)
    }

    /// Runs the session to its end, as `AdSessionRunner.run` does; the summary's `vmap` is set when it played VMAP.
    public func run(observer: @escaping @Sendable (SessionRecord) async -> Void) async -> SessionSummary {
        let loader = VMAPDocumentLoader(configuration: configuration, environment: environment)
        let loaded = mode == .interstitials ? await loader.loadInterstitials() : await loader.load(requireVMAP: mode == .vmap)
        switch loaded {
        case let .vast(url, fetched, elapsed):
            let environment = environment.answering(url, with: fetched, elapsed: elapsed)
            var runner = AdSessionRunner(configuration: configuration, environment: environment)
            runner.loadedBefore = elapsed
            return await runner.run(observer: observer)
        case let .failed(error, _):
            let outlet = await AdSessionRunner.Outlet.open(configuration, environment: environment, observer: observer)
            var summary = SessionSummary(outcome: Task.isCancelled ? .interrupted : .adError, dryRun: configuration.dryRun)
            var report = VMAPRunReport(version: "", namespace: .none, contentDuration: .zero, contentDurationGiven: playback.contentDuration != nil,
                                       breakPrefetch: playback.breakPrefetch)
            report.documentError = error
            summary.vmap = report
            await outlet.close(&summary, configuration: configuration, environment: environment)
            return summary
        case let .interstitials(breaks, url):
            // The content lasts what its segments add up to, unless --content-duration says otherwise.
            var streamPlayback = playback
            streamPlayback.contentDuration = playback.contentDuration ?? breaks.stream.contentDuration
            return await play(breaks.document, url: url, playback: streamPlayback, interstitials: breaks, observer: observer)
        case let .vmap(document, url):
            return await play(document, url: url, playback: playback, interstitials: nil, observer: observer)
        }
    }

    private func play(_ document: VMAPDocument, url: URL, playback: VMAPPlayback, interstitials: InterstitialBreaks?,
                      observer: @escaping @Sendable (SessionRecord) async -> Void) async -> SessionSummary {
        let outlet = await AdSessionRunner.Outlet.open(configuration, environment: environment, observer: observer)
        var summary = SessionSummary(outcome: .completed, dryRun: configuration.dryRun)
        summary.network = configuration.network
        // `--vmap` refuses them; a document `--vast` found to be VMAP says it plays without them.
        let ignored = [configuration.displayDeadline.map { _ in "--display-deadline" }] + configuration.script.loadSteps.map { Optional("--script \($0.text)") }
        if case .detect = mode, !ignored.compactMap({ $0 }).isEmpty {
            let names = ignored.compactMap { $0 }.joined(separator: ", ")
            await outlet.tally.send(.warning(Finding(.vmapOptionIgnored, "\(names): timing a VAST tag's loading, not applied: the document is VMAP, and its breaks play without it (not yet per break)").description))
        }
        let report = await VMAPSession(configuration: configuration, playback: playback, environment: environment, document: document, documentURL: url,
                                       interstitials: interstitials).run(outlet: outlet)
        summary.vmap = report
        summary.clock = report.breaks.compactMap(\.end).max().map { max($0, report.content.last?.end ?? .zero) } ?? (report.content.last?.end ?? .zero)
        summary.ads = []
        if Task.isCancelled {
            summary.outcome = .interrupted
        } else if report.breaks.contains(where: { $0.outcome == .failed }) {
            summary.outcome = .adError
        }
        await outlet.close(&summary, configuration: configuration, environment: environment)
        return summary
    }
}
