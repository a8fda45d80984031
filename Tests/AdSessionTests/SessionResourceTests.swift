import Primitives
import Foundation
import Testing
import TestSupport
@testable import AdSession

/// Many sessions in one process (library use, as a fleet or a test suite runs them): each opens FFmpeg on its media,
/// an HTTP client for tags and beacons and, with a sink, a server; none may leave a file descriptor or a thread behind.
/// Counted from /proc/self/fd and /proc/self/task after a few warm-up sessions (the shared event loop threads start
/// with the first), with a small allowance for other suites' threads and sockets winding down meanwhile.
///
/// A debug build runs about 14 dry-run sessions a second on 2 cores (10 with the sink), so the suite runs a few hundred;
/// `VPLAY_SESSIONS=N` sets how many each test runs, and `scripts/bench/sessions.sh` runs 1,000 and prints the counts (`VPLAY_MEASURE`).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd"), "counts come from Linux's /proc"))
struct SessionResourceTests {
    /// `VPLAY_SESSIONS`, when set: how many sessions each test runs.
    static let requested = ProcessInfo.processInfo.environment["VPLAY_SESSIONS"].flatMap(Int.init)
    /// Dry-run sessions per test by default.
    static let dryRunSessions = requested ?? 200
    /// Sessions with the embedded sink by default: each sends 12 beacons over loopback HTTP and starts and stops a server.
    static let sinkSessions = requested ?? 100
    /// Descriptors or threads more after the sessions than before that still count as "did not grow": noise from
    /// the other suites running in the same process meanwhile (9 descriptors once, on an idle machine), not per
    /// session: a leak of one per session is a hundred or more.
    static let allowance = 25

    struct Usage: CustomStringConvertible {
        var descriptors: Int
        var threads: Int
        static var now: Usage {
            Usage(descriptors: (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1,
                  threads: (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").count) ?? -1)
        }
        var description: String { "\(descriptors) descriptors, \(threads) threads" }
    }

    /// The demo tag on the 5 s video-only clip (150 frames), tracking URLs on 127.0.0.1:8089 as in the demo.
    static func tag(_ folder: TemporaryFolder) throws -> String {
        let tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "file://\(Repo.media("clip-5s-video-only.mp4"))")
        return try folder.write("tag.xml", tag)
    }

    /// Runs `count` sessions one after another; returns the usage before (after `warmUp` sessions) and after, and
    /// how many did not complete.
    static func run(_ configuration: SessionConfiguration, count: Int, warmUp: Int = 3) async -> (before: Usage, after: Usage, failed: Int) {
        var failed = 0
        func session() async {
            let summary = await AdSessionRunner(configuration: configuration).run { _ in }
            if summary.outcome != .completed || summary.beaconsFailed > 0 { failed += 1 }
        }
        for _ in 0..<warmUp { await session() }
        let before = Usage.now
        let clock = ContinuousClock(), started = clock.now
        for _ in 0..<count { await session() }
        let after = Usage.now
        measurement("\(count) sessions (\(configuration.dryRun ? "dry run" : "sink")) in \(started.duration(to: clock.now)); before: \(before); after: \(after)")
        return (before, after, failed)
    }

    @Test(.hangLimit)
    func manyDryRunSessions_leaveDescriptorsAndThreadsAsTheyWere() async throws {
        let folder = try TemporaryFolder()
        var configuration = SessionConfiguration(tag: try Self.tag(folder))
        configuration.dryRun = true
        configuration.now = 1_767_225_600_000
        let (before, after, failed) = await Self.run(configuration, count: Self.dryRunSessions)
        #expect(failed == 0)
        #expect(after.descriptors - before.descriptors <= Self.allowance, "before: \(before); after \(Self.dryRunSessions) sessions: \(after)")
        #expect(after.threads - before.threads <= Self.allowance, "before: \(before); after \(Self.dryRunSessions) sessions: \(after)")
    }

    @Test(.hangLimit)
    func sessionsWithTheSink_everyBeaconOverHTTP_leaveDescriptorsAndThreadsAsTheyWere() async throws {
        let folder = try TemporaryFolder()
        var configuration = SessionConfiguration(tag: try Self.tag(folder))
        configuration.sink = .loopback
        configuration.now = 1_767_225_600_000
        configuration.beaconDrain = .seconds(10)
        let (before, after, failed) = await Self.run(configuration, count: Self.sinkSessions)
        #expect(failed == 0, "every session completed with every beacon delivered to the sink")
        #expect(after.descriptors - before.descriptors <= Self.allowance, "before: \(before); after \(Self.sinkSessions) sessions: \(after)")
        #expect(after.threads - before.threads <= Self.allowance, "before: \(before); after \(Self.sinkSessions) sessions: \(after)")
    }
}
