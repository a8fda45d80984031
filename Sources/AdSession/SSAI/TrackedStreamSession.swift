import Findings
import Foundation
import PlayerEngine
import Primitives
import TrackingBeacons
import VAST

/// Plays a stream by its client-side tracking document on a simulated stream clock: the stream (ads stitched in)
/// is never decoded, only timed; each timed event's beacons fire when the playhead reaches the document's
/// `startTimeInSeconds` (what MediaTailor's client-side beaconing asks of a player), the viewer's script moves the
/// playhead (a forward seek passes events by, unfired; the background pauses the ad playing), and a live stream's
/// document is polled for new avails.
struct TrackedStreamSession {
    let configuration: SessionConfiguration
    let playback: TrackedStreamPlayback
    let environment: SessionEnvironment
    let loader: TrackingDocumentLoader

    /// One event of the schedule: where it is in the report and when the document says it is due.
    struct Key: Hashable, Comparable {
        var avail: Int
        /// Nil for the avail's own events.
        var ad: Int?
        var event: Int

        static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.avail, lhs.ad ?? -1, lhs.event) < (rhs.avail, rhs.ad ?? -1, rhs.event)
        }
    }

    func run(_ first: TrackingDocument, url: URL, outlet: AdSessionRunner.Outlet) async -> TrackedStreamReport {
        var state = TrackedStreamState(document: first, url: url.absoluteString, playback: playback)
        let end = state.streamDuration
        var timeline = VMAPTimeline(slots: [], script: playback.contentScript, contentDuration: end, clock: environment.playbackClock(configuration.clock))
        var beacons = TrackedStreamBeacons(configuration: configuration, wallStart: outlet.wallStart)
        var nextPoll = playback.pollInterval
        var token = first.nextToken
        // Findings are said as they are found: at the start, then after each poll that adds any.
        var said = 0
        func say() async {
            for finding in state.report.findings.dropFirst(said) { await outlet.tally.send(.warning("tracking document: \(finding)")) }
            said = state.report.findings.count
        }
        await say()
        while !Task.isCancelled {
            let due = state.nextDue(after: timeline.now.content)
            let target = [due, nextPoll, timeline.end].compactMap { $0 }.min() ?? timeline.end
            let seek = await timeline.advance(to: target) { position, entering in
                await state.background(at: position, entering: entering, beacons: &beacons, outlet: outlet)
            }
            if Task.isCancelled { break }
            if let seek {
                state.seeked(from: seek.from, to: seek.to)
                continue
            }
            let now = timeline.now
            await state.fire(at: now, beacons: &beacons, outlet: outlet)
            if let poll = nextPoll, poll <= now.content, now.content < timeline.end, let interval = playback.pollInterval {
                nextPoll = poll + interval
                state.report.polls += 1
                switch await loader.poll(url, token: token) {
                case let .success(document):
                    token = document.nextToken ?? token
                    state.merge(document)
                case let .failure(error):
                    state.report.findings.append(Finding(.ssaiPollFailed, "the poll at \(now.content.seconds) s of the stream failed: \(error.message); the avails known play on").description)
                }
                await say()
            }
            if now.content >= timeline.end { break }
        }
        timeline.markEnd()
        state.finish()
        state.report.content = timeline.spans
        return state.report
    }
}
