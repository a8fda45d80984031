import Foundation
import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

extension VMAPBreakPlayer {
    /// A fresh report of the break at `slot`, `number` in play order.
    func report(_ slot: VMAPSchedule.Slot, number: Int) -> VMAPBreakReport {
        let adBreak = document.breaks[slot.breakIndex]
        let source: String = switch adBreak.source?.content {
        case .inlineVAST? where interstitials != nil: "assetURI"
        case .adTagURI? where interstitials != nil: "assetList"
        case .inlineVAST?: "inline"
        case .adTagURI?: "adTagURI"
        case .custom?: "custom"
        case nil: "none"
        }
        return VMAPBreakReport(number: number, documentIndex: slot.breakIndex + 1, occurrence: slot.occurrence, breakID: adBreak.breakID,
                               offsetText: adBreak.timeOffsetText, contentTime: slot.time, position: slot.position, types: adBreak.breakTypes,
                               source: source, outcome: .played)
    }

    /// The break's own tracking, macros as the break's configuration gives them.
    func tracking(_ slot: VMAPSchedule.Slot, number: Int, wallStart: Int64, adding more: [VMAPDocument.Tracking] = []) -> VMAPBreakTracking {
        let breakConfiguration = configuration(for: slot, number: number)
        return VMAPBreakTracking(tracking: document.breaks[slot.breakIndex].tracking + more, number: number, documentIndex: slot.breakIndex + 1,
                                 macros: BeaconPlanner.macros(for: breakConfiguration), wallStart: wallStart,
                                 timeZoneOffsetMinutes: configuration.timeZoneOffsetMinutes,
                                 cacheBuster: CacheBuster(seed: breakConfiguration.seed ^ 0x766D_6170))  // "vmap"
    }

    /// Plays the prepared break from session time `start` on `clock`: `breakStart` when an ad of it is about to play,
    /// its ads through the session core (events and beacons shifted to session time and tagged with the break),
    /// `breakEnd` after them, and each failure to the break's `error` tracking. Returns the report, `end` set.
    func play(_ prepared: Prepared, report: VMAPBreakReport, slot: VMAPSchedule.Slot, at start: Duration, clock: any Clock<Duration>,
              outlet: AdSessionRunner.Outlet) async -> VMAPBreakReport {
        var report = report
        report.start = start
        report.end = start
        let written: InterstitialVAST.Written? = if case let .requested(_, _, _, _, written) = prepared { written } else { nil }
        var tracking = tracking(slot, number: report.number, wallStart: outlet.wallStart, adding: written?.tracking ?? [])
        let number = report.number
        var beacons = 0
        func submit(_ planned: [PlannedBeacon]) async {
            for beacon in planned {
                beacons += 1
                await outlet.tally.planned()
                await outlet.dispatcher.submit(beacon)
            }
        }
        func fail(_ failure: VMAPBreakReport.Failure, at clock: Duration) async {
            report.errors.append(failure)
            await submit(tracking.fire("error", at: clock, error: failure))
        }
        guard case let .requested(preparedAd, breakConfiguration, tagURL, responseFailure, _) = prepared else {
            if case let .notRequested(outcome, error) = prepared {
                report.outcome = outcome
                await outlet.tally.send(.warning("break \(number) (\(report.offsetText)): \(error)"))
                await fail(VMAPBreakReport.Failure(code: error.code.rawValue, message: error.message), at: start)
            }
            report.beacons = beacons
            return report
        }
        report.tagURL = tagURL
        for note in written?.notes ?? [] { await outlet.tally.send(.warning(note.description)) }
        let adBreak = AdSessionRunner.playable(preparedAd, media: environment.media, threads: configuration.decoderThreads)
        report.adsTried = adBreak.turns.count
        let plays = adBreak.turns.contains(where: \.plays)
        if plays { await submit(tracking.fire("breakStart", at: start)) }
        var step = BeaconStep(configuration: breakConfiguration, seed: breakConfiguration.seed, wallStart: outlet.wallStart + start.wholeMilliseconds)
        let outputs = SessionCore.Outputs(report: { record in
            await outlet.tally.send(record.inBreak(number, startingAt: start))
        }, submit: { beacon in
            var shifted = beacon
            shifted.clock += start
            shifted.adBreak = number
            beacons += 1
            await outlet.tally.planned()
            await outlet.dispatcher.submit(shifted)
        })
        let result = await SessionCore(environment: environment).run(adBreak, script: breakConfiguration.script, clock: clock, step: &step, outputs: outputs)
        let length = max(result.playback?.clock ?? .zero, result.ads.compactMap(\.end).max() ?? .zero)
        let end = start + length
        report.end = end
        // A single ad played when it reached its first frame; a pod's ads say so each.
        report.adsPlayed = result.ads.isEmpty ? (result.playback != nil ? 1 : 0) : result.ads.filter { $0.played > .zero }.count
        if let responseFailure {
            await fail(VMAPBreakReport.Failure(code: responseFailure.code.rawValue, message: responseFailure.message), at: end)
        } else {
            // Each ad that failed, when it failed: a pod that loses one ad goes on, and the break says so.
            let errors: [(SessionError, Duration)] = result.ads.isEmpty
                ? [result.error].compactMap { $0 }.map { ($0, $0.clock ?? .zero) }
                : result.ads.compactMap { ad in ad.error.map { ($0, ad.end ?? length) } }
            for (error, at) in errors { await fail(VMAPBreakReport.Failure(code: error.code.rawValue, message: error.message), at: start + at) }
        }
        if plays { await submit(tracking.fire("breakEnd", at: end)) }
        // A signal before any ad of it played: the break was not reached, it did not fail.
        report.outcome = report.adsPlayed > 0 ? .played : Task.isCancelled ? .notReached : .failed
        report.beacons = beacons
        return report
    }
}
