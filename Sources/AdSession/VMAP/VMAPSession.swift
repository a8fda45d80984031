import Findings
import Foundation
import Primitives
import VAST

/// A VMAP session's content clock and its breaks, in the order a player meets them. The content is not decoded: it
/// is time on the session's playback clock (virtual or real, like an ad's), moved from break to break. Each break's
/// ads are asked for `--break-prefetch` before its time; at its time the content stops, the break plays as a pod
/// from that session time, and the content goes on. The content script seeks (a forward seek past breaks plays the
/// last one passed, as IMA does; the others are `passed`), puts the app in the background (the content waits, the
/// session clock goes on), and signals `contentComplete` (at the content's end by default): post-rolls play after it,
/// and without it they are requested and `withheld`.
struct VMAPSession {
    let configuration: SessionConfiguration
    let playback: VMAPPlayback
    let environment: SessionEnvironment
    let document: VMAPDocument
    let documentURL: URL
    /// The stream's interstitials, when the breaks are an HLS stream's: its findings, its asset lists, where the
    /// content resumes after each.
    var interstitials: InterstitialBreaks?

    /// Where the content and the session are.
    struct Position {
        var content: Duration = .zero
        var session: Duration = .zero
    }

    /// Plays the schedule; each break's report goes to the tally as it ends.
    func run(outlet: AdSessionRunner.Outlet) async -> VMAPRunReport {
        let duration = playback.contentDuration ?? VMAPSchedule.defaultContentDuration(document)
        let schedule = VMAPSchedule(document, contentDuration: duration)
        var run = VMAPRunReport(version: document.version, namespace: document.namespace, contentDuration: duration,
                                contentDurationGiven: playback.contentDuration != nil, breakPrefetch: playback.breakPrefetch)
        run.notes = VMAPNotes.findings(document, schedule: schedule, playback: playback, contentDuration: duration, interstitials: interstitials)
            .map(\.description)
        for note in run.notes { await outlet.tally.send(.warning(note)) }
        var timeline = VMAPTimeline(slots: schedule.slots, script: playback.contentScript, contentDuration: duration,
                                    clock: environment.playbackClock(configuration.clock), mustPlay: interstitials?.jumpRestricted(schedule.slots) ?? [])
        let player = VMAPBreakPlayer(configuration: configuration, environment: environment, document: document, documentURL: documentURL,
                                     interstitials: interstitials)
        func finish(_ report: VMAPBreakReport) async {
            run.breaks.append(report)
            await outlet.tally.send(.adBreak(report))
            if let finding = VMAPNotes.finding(for: report) { await outlet.tally.send(.warning(finding.description)) }
        }
        while !Task.isCancelled {
            guard let (index, due) = timeline.next() else {
                // Nothing left before the end: the content plays to it.
                guard !timeline.reachedEnd else { break }
                if let seek = await timeline.advance(to: timeline.end) {
                    for passed in timeline.seeked(seek) { await finish(passedReport(passed, player: player, timeline: &timeline)) }
                    continue
                }
                if Task.isCancelled { break }
                timeline.markEnd()
                continue
            }
            let slot = schedule.slots[index]
            timeline.number += 1
            let number = timeline.number
            var report = player.report(slot, number: number)
            if let seek = await timeline.advance(to: max(timeline.now.content, due - playback.breakPrefetch)) {
                timeline.number -= 1
                for passed in timeline.seeked(seek) { await finish(passedReport(passed, player: player, timeline: &timeline)) }
                continue
            }
            // A signal while the content played: nothing more is asked for.
            if Task.isCancelled { break }
            report.requestedAt = timeline.now.content
            let request = Task { Handover(prepared: await player.prepare(slot, number: number)) }
            if let seek = await timeline.advance(to: due) {
                // Its ads were asked for; the seek decides whether it plays (the last break passed does).
                _ = await withTaskCancellationHandler { await request.value } onCancel: { request.cancel() }
                timeline.number -= 1
                for passed in timeline.seeked(seek) {
                    var passedReport = passedReport(passed, player: player, timeline: &timeline)
                    if passed == index { passedReport.requestedAt = report.requestedAt }
                    await finish(passedReport)
                }
                continue
            }
            if Task.isCancelled {
                request.cancel()
                break
            }
            // A post-roll is due at the content's end.
            if slot.position == 3, !timeline.reachedEnd { timeline.markEnd() }
            // A signal while the ads load stops their loading too (the request is a task of its own).
            let prepared = await withTaskCancellationHandler { await request.value.prepared } onCancel: { request.cancel() }
            timeline.handled.insert(index)
            if slot.position == 3, !timeline.contentCompleted {
                await finish(Self.withheld(report, at: timeline.now.session))
                continue
            }
            timeline.closeSpan()
            let played = await player.play(prepared, report: report, slot: slot, at: timeline.now.session, clock: timeline.clock, outlet: outlet)
            timeline.resume(after: played.end ?? timeline.now.session)
            await finish(played)
            for passed in resumeAfterInterstitial(played, slot: slot, timeline: &timeline, player: player) { await finish(passed) }
        }
        if !Task.isCancelled {
            for report in unreached(&timeline, player: player) { await finish(report) }
        }
        timeline.closeSpan()
        run.content = timeline.spans
        run.contentComplete = timeline.contentCompleteAt
        return run
    }

    /// A post-roll whose ads were asked for and never played: `contentComplete` was never signalled.
    private static func withheld(_ report: VMAPBreakReport, at session: Duration) -> VMAPBreakReport {
        var report = report
        report.outcome = .withheld
        report.start = session
        report.end = session
        return report
    }

    /// After an interstitial, the content goes on from its resume offset: the breaks that skips are passed.
    private func resumeAfterInterstitial(_ played: VMAPBreakReport, slot: VMAPSchedule.Slot, timeline: inout VMAPTimeline,
                                         player: VMAPBreakPlayer) -> [VMAPBreakReport] {
        guard let interstitials, slot.position != 3 else { return [] }
        let offset = interstitials.resumeOffset(slot.breakIndex, played: (played.end ?? played.start ?? .zero) - (played.start ?? .zero))
        return timeline.jump(by: offset).map { passedReport($0, player: player, timeline: &timeline) }
    }

    /// The breaks never met (mid-rolls past an early `contentComplete`), numbered after the rest.
    private func unreached(_ timeline: inout VMAPTimeline, player: VMAPBreakPlayer) -> [VMAPBreakReport] {
        timeline.unreached().map { index in
            timeline.number += 1
            var report = player.report(timeline.slots[index], number: timeline.number)
            report.outcome = .notReached
            return report
        }
    }

    /// A break's preparation handed from the task that asked for its ads while the content played (its media
    /// sources are not `Sendable`) to the session. The task returns it and never touches it again.
    private struct Handover: @unchecked Sendable {
        let prepared: VMAPBreakPlayer.Prepared
    }

    private func passedReport(_ index: Int, player: VMAPBreakPlayer, timeline: inout VMAPTimeline) -> VMAPBreakReport {
        timeline.number += 1
        var report = player.report(timeline.slots[index], number: timeline.number)
        report.outcome = .passed
        return report
    }
}
