import Foundation
import Primitives
import VAST

/// A fleet over a VMAP document (`vplay fleet --vmap DOC`): each viewer watches the content to a point drawn from
/// `--watch-mix`, so each break is reached by the viewers who watch that far; each break then runs as a fleet of its
/// viewers through the same `FleetRunner` (its ads resolved and decoded once, every session on the session core,
/// the oracle's expected counts, the sink's reconciliation), each session firing the break's `breakStart` before its
/// ads and `breakEnd` after them. A VAST document given to `--vast` runs as the one-tag fleet it is.
public struct VMAPFleetRunner: Sendable {
    public let configuration: FleetConfiguration
    public let playback: VMAPPlayback
    public let watchMix: WatchMix
    public let mode: VMAPSessionRunner.Mode
    public let environment: SessionEnvironment

    public init(configuration: FleetConfiguration, playback: VMAPPlayback = VMAPPlayback(), watchMix: WatchMix = .toTheEnd, mode: VMAPSessionRunner.Mode,
                environment: SessionEnvironment? = nil) {
        self.configuration = configuration
        self.playback = playback
        self.watchMix = watchMix
        self.mode = mode
        self.environment = environment ?? .live(configuration.session, pooledBeacons: true)
    }

    /// A VAST tag's fleet, or a VMAP document's.
    public enum Outcome: Sendable {
        case vast(Result<FleetReport, FleetFailure>)
        case vmap(VMAPFleetReport)
    }

    public func run(onProgress: @escaping @Sendable (FleetProgress) -> Void = { _ in },
                    admitMedia: @escaping @Sendable (String) -> String? = { _ in nil }) async -> Outcome {
        let loaded = await VMAPDocumentLoader(configuration: configuration.session, environment: environment).load(requireVMAP: mode == .vmap)
        switch loaded {
        case let .vast(url, fetched, elapsed):
            let environment = environment.answering(url, with: fetched, elapsed: elapsed)
            return .vast(await FleetRunner(configuration: configuration, environment: environment).run(onProgress: onProgress, admitMedia: admitMedia))
        case .interstitials:
            // Not asked for: a fleet is refused an interstitial stream before it starts.
            await environment.shutdown()
            return .vmap(emptyReport(contentDuration: .zero))
        case let .failed(error, _):
            var report = emptyReport(contentDuration: .zero)
            report.error = VMAPFleetReport.Failure(code: error.code.rawValue, message: error.message)
            await environment.shutdown()
            return .vmap(report)
        case let .vmap(document, url):
            let stopwatch = environment.networkClock.stopwatch()
            var report = await play(document, url: url, onProgress: onProgress, admitMedia: admitMedia)
            report.seconds = stopwatch().seconds
            await environment.shutdown()
            return .vmap(report)
        }
    }

    private func emptyReport(contentDuration: Duration) -> VMAPFleetReport {
        var report = VMAPFleetReport(tag: configuration.session.tag, sessions: configuration.sessions, seed: configuration.session.seed,
                                     mix: configuration.mix.description, watchMix: watchMix.description, contentDuration: contentDuration.seconds,
                                     contentDurationGiven: playback.contentDuration != nil)
        (report.shardCount, report.shards) = (configuration.shard.count, [configuration.shard.index])
        return report
    }

    private func play(_ document: VMAPDocument, url: URL, onProgress: @escaping @Sendable (FleetProgress) -> Void,
                      admitMedia: @escaping @Sendable (String) -> String?) async -> VMAPFleetReport {
        let duration = playback.contentDuration ?? VMAPSchedule.defaultContentDuration(document)
        let schedule = VMAPSchedule(document, contentDuration: duration)
        var report = emptyReport(contentDuration: duration)
        report.notes = VMAPNotes.findings(document, schedule: schedule, playback: playback, contentDuration: duration).map(\.description)
        let seed = configuration.session.seed
        // Every viewer's point, in every shard: each break's reach is the whole fleet's, and its fleet runs this shard's
        // share of it (so the shards' break reports add up to the whole's: `VMAPFleetReport.merge`). Counted by point,
        // not kept by viewer: a fleet may have two billion.
        var viewersByPoint = [Int](repeating: 0, count: watchMix.shares.count)
        for index in 0..<configuration.sessions { viewersByPoint[watchMix.draw(index: index, seed: seed)] += 1 }
        let player = VMAPBreakPlayer(configuration: configuration.session, environment: environment, document: document, documentURL: url)
        // `--abort-on-fail`: a break that stopped at a breach ends the run; the breaks after it are not reached.
        var aborted = false
        for (offset, slot) in schedule.slots.enumerated() where !Task.isCancelled {
            let number = offset + 1
            let reach = viewersByPoint.indices.reduce(0) { sum, share in
                sum + (watchMix.reaches(share: share, slot: slot, contentDuration: duration) ? viewersByPoint[share] : 0)
            }
            var entry = VMAPFleetReport.Break(number: number, adBreak: slot.breakIndex + 1, occurrence: slot.occurrence,
                                              timeOffset: document.breaks[slot.breakIndex].timeOffsetText, contentTime: slot.time.seconds,
                                              position: slot.position, reach: reach, outcome: "notReached")
            if aborted {
                entry.outcome = "aborted"
                report.breaks.append(entry)
                continue
            }
            var tracking = FleetConfiguration.BreakTracking(start: player.targets("breakStart", of: slot), end: player.targets("breakEnd", of: slot))
            tracking.errors = { code, message in player.errorTargets(of: slot, code: code, message: message) }
            switch player.request(slot, number: number) {
            case let .notRequested(outcome, error):
                entry.outcome = outcome.rawValue
                entry.error = VMAPFleetReport.Failure(code: error.code.rawValue, message: error.message)
                // Each viewer who reaches it fires its `error` tracking, as a session does (`VMAPBreakPlayer.play`).
                guard reach > 0, !player.targets("error", of: slot).isEmpty else { break }
                tracking.notRequested = error
                entry.report = await fleet(of: player.configuration(for: slot, number: number), reach: reach, tracking: tracking, onProgress: onProgress,
                                           admitMedia: admitMedia).failure?.report
            case let .request(breakConfiguration, _) where reach > 0:
                switch await fleet(of: breakConfiguration, reach: reach, tracking: tracking, onProgress: onProgress, admitMedia: admitMedia) {
                case let .success(breakReport):
                    entry.outcome = "played"
                    entry.report = breakReport
                    aborted = breakReport.aborted != nil
                case let .failure(failure):
                    entry.outcome = "failed"
                    entry.error = VMAPFleetReport.Failure(code: failure.error.code.rawValue, message: failure.error.message)
                    entry.report = failure.report
                }
            case .request, .assetList:
                break
            }
            report.breaks.append(entry)
        }
        return report
    }

    /// The fleet of a break's `reach` viewers on the one environment.
    private func fleet(of session: SessionConfiguration, reach: Int, tracking: FleetConfiguration.BreakTracking,
                       onProgress: @escaping @Sendable (FleetProgress) -> Void, admitMedia: @escaping @Sendable (String) -> String?) async
        -> Result<FleetReport, FleetFailure> {
        var fleet = configuration
        fleet.session = session
        fleet.sessions = reach
        fleet.shard = configuration.shard
        // --results is a fleet of one tag's (the CLI says a VMAP fleet writes none).
        fleet.results = nil
        fleet.breakTracking = tracking
        var runner = FleetRunner(configuration: fleet, environment: environment)
        runner.shutsDownEnvironment = false
        return await runner.run(onProgress: onProgress, admitMedia: admitMedia)
    }
}

extension Result {
    /// The failure, if it is one.
    var failure: Failure? { if case let .failure(failure) = self { failure } else { nil } }
}
