import AdSession
import ArgumentParser
import Foundation
import Testing
import TestSupport
@testable import vplay

/// `fleet --abort-on-fail` (issue 43, item 2): the first threshold breached for good stops the run, timed on the kit's
/// network clock, which only the test moves: every beacon is answered 100 ms after it is sent, the midpoint's with a
/// 500, so the fifth midpoint answered breaches `failures<5` at an exact network time.
@Suite struct FleetAbortBehaviourTests {
    static let arguments = ["fleet", "--vast", "media/demo.xml", "--concurrency", "4", "--seed", "3", "--mix", "complete:1",
                            "--beacon-concurrency", "8", "--threshold", "failures<5", "--threshold", "delivered/sent>=0.5"]

    func kit() -> SessionKit {
        var kit = SessionKit()
        kit.answers = [.status(204, delay: .milliseconds(100))]
        kit.answersByURL = [("/midpoint", .status(500, delay: .milliseconds(100)))]
        return kit
    }

    /// Runs the fleet while moving the network clock to its next deadline whenever the fleet has stood still a while
    /// (a readiness wait in real time: a step taken early only makes later times later, never a breach earlier).
    func drive(_ kit: SessionKit, _ arguments: [String]) async throws -> (FleetReport, sent: [(url: String, at: Duration)]) {
        let command = try kit.command(cli: arguments, as: FleetCommand.self)
        let fleet = Task { [kit] in await kit.timedFleet(command.fleetConfiguration()) }
        let clock = kit.networkClock
        let driver = Task {
            var still = 0, last = (-1, -1)
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(2))
                let now = (clock.sleeperCount, kit.transports.withLock { $0.last?.sent.withLock { $0.count } ?? 0 })
                still = now == last ? still + 1 : 0
                last = now
                if still >= 25, let next = clock.nextDeadline {
                    clock.advance(by: next.offset - clock.now.offset)
                    still = 0
                }
            }
        }
        let (result, sent) = await fleet.value
        driver.cancel()
        return (try result.get(), sent)
    }

    @Test func aCountBreachedForGood_stopsTheFleetWithinASecondOfTheBreach_andExits99() async throws {
        let kit = kit()
        let (report, sent) = try await drive(kit, Self.arguments + ["--sessions", "2000", "--abort-on-fail"])
        // The breach: the fifth midpoint's 500, answered 100 ms after it was sent.
        let midpoints = sent.filter { $0.url.contains("/midpoint") }.map(\.at).sorted()
        try #require(midpoints.count >= 5, "\(midpoints.count) midpoints sent")
        let breach = (midpoints[4] + .milliseconds(100)).seconds
        let aborted = try #require(report.aborted, "the run was not aborted")
        #expect(aborted.threshold == "failures<5")
        #expect(aborted.seconds >= breach && aborted.seconds <= breach + 1, "seen at \(aborted.seconds) s, breached at \(breach) s")
        #expect(report.performance.seconds <= breach + 1, "ended at \(report.performance.seconds) s, breached at \(breach) s")
        let played = report.population.scenarios.values.reduce(0, +)
        #expect(played < 200, "\(played) of 2000 sessions played")
        // The ratio is judged at the end only: it did not abort, and holds on what was played.
        #expect(try FleetThreshold(parsing: "delivered/sent>=0.5").evaluate(report).passed)
        let (code, reason) = FleetCommand.exitCode(report, signal: nil, failOnBeaconErrors: false)
        #expect(code == 99 && reason.hasPrefix("threshold failed, run aborted at "), "\(code) \(reason)")
        #expect(reason.contains("failures<5: "), "\(reason)")
    }

    @Test func withoutTheFlag_theSameBreachIsJudgedAtTheEnd_andEveryoneWatches() async throws {
        let (report, _) = try await drive(kit(), Self.arguments + ["--sessions", "40"])
        #expect(report.aborted == nil)
        #expect(report.population.scenarios.values.reduce(0, +) == 40)
        #expect(report.checks.sentAsExpected)
        let verdict = try FleetThreshold(parsing: "failures<5").evaluate(report)
        #expect(!verdict.passed && verdict.actual == 40, "\(verdict.message)")
    }

    @Test func onlyWhatTheRestOfTheRunCannotUndo_mayAbort() throws {
        let live = ["failures<10", "failures<=10", "failures==0", "sent<=5000", "event=error:sent==0", "url=/midpoint:delivered<3",
                    "network=3g:stalled<5", "latency.max<2s", "latency.max<=250ms"]
        let atTheEnd = ["received/sent>=0.999", "sent>=100", "sent>100", "expected<=10", "latency.p99<250ms", "latency.max>1ms",
                        "event=complete:delivered/expected>=0.99"]
        for text in live { #expect(try FleetThreshold(parsing: text).judgedWhileRunning, "\(text)") }
        for text in atTheEnd { #expect(try !FleetThreshold(parsing: text).judgedWhileRunning, "\(text)") }
    }

    @Test func theFlag_needsAThresholdItCanJudgeWhileRunning() throws {
        let kit = SessionKit()
        let base = ["fleet", "--vast", "media/demo.xml", "--sessions", "10", "--abort-on-fail"]
        #expect(throws: (any Error).self) { try kit.command(cli: base, as: FleetCommand.self) }
        do { _ = try kit.command(cli: base + ["--threshold", "received/sent>=0.999"], as: FleetCommand.self); Issue.record("a ratio alone was taken") } catch {
            #expect(VPlay.message(for: error).contains("no --threshold can be breached for good before the end"), "\(VPlay.message(for: error))")
        }
        #expect(try kit.command(cli: base + ["--threshold", "received/sent>=0.999", "--threshold", "failures==0"], as: FleetCommand.self).abortOnFail)
        do {
            _ = try kit.command(cli: ["fleet", "--vast", "media/demo.xml", "--ssai", "compare", "--threshold", "failures==0"], as: FleetCommand.self)
            Issue.record("--threshold with --ssai compare was taken")
        } catch {
            #expect(VPlay.message(for: error).contains("--threshold: --ssai compare"), "\(VPlay.message(for: error))")
        }
    }

    /// A VMAP fleet runs a fleet a break: the thresholds judge each break's, and a breach in the pre-roll's ends the run
    /// there, the later breaks marked aborted.
    @Test func aVMAPFleet_judgesEachBreak_andABreachEndsTheRunAtItsBreak() async throws {
        typealias D = VMAPDocuments
        var kit = SessionKit()
        let url = "https://ads.example/vmap.xml"
        kit.tag(url, D.vmap(D.adBreak("start", "pre", source: D.inline(D.vast(D.ad("a-pre")))),
                            D.adBreak("00:00:10", "mid", source: D.inline(D.vast(D.ad("a-mid")))),
                            D.adBreak("end", "post", source: D.inline(D.vast(D.ad("a-post"))))))
        try kit.media(D.clip, clip: "clip-5s-video-only.mp4")
        kit.answersByURL = [("/a-pre/", .status(500))]
        let threshold = try FleetThreshold(parsing: "failures==0")
        var fleet = FleetConfiguration(session: kit.configuration(url), sessions: 400, mix: try FleetMix(parsing: "complete:1"))
        fleet.concurrency = 4
        let playback = VMAPPlayback(contentDuration: .seconds(30))

        // Judged at the end: every break plays, the pre-roll's fails the threshold, exit 99 naming it.
        let (whole, _) = await kit.vmapFleet(fleet, playback: playback)
        guard case let .vmap(played) = whole else { Issue.record("not a VMAP fleet: \(whole)"); return }
        let judged = FleetCommand.judged(played, by: [threshold])
        #expect(judged.breaks.map(\.outcome) == ["played", "played", "played"])
        #expect(judged.breaks.map { $0.report?.thresholds?.first?.passed } == [false, true, true])
        let (first, why) = try #require(FleetCommand.thresholdFailure(judged))
        #expect(first.number == 1 && why.hasPrefix("threshold failed: failures==0: "), "\(why)")

        // With --abort-on-fail: the pre-roll's fleet stops at the breach, and the breaks after it are not played.
        fleet.abortOn = [threshold]
        let (stopped, _) = await kit.vmapFleet(fleet, playback: playback)
        guard case let .vmap(aborted) = stopped else { Issue.record("not a VMAP fleet: \(stopped)"); return }
        #expect(aborted.breaks.map(\.outcome) == ["played", "aborted", "aborted"])
        let preRoll = try #require(aborted.breaks.first?.report)
        #expect(preRoll.aborted?.threshold == "failures==0")
        #expect(preRoll.population.scenarios.values.reduce(0, +) < 400, "the pre-roll's fleet went on after the breach")
        let (breach, reason) = try #require(FleetCommand.thresholdFailure(FleetCommand.judged(aborted, by: [threshold])))
        #expect(breach.number == 1 && reason.hasPrefix("threshold failed, run aborted at "), "\(reason)")
    }
}
