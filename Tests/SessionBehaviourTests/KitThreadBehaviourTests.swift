import AdSession
import Foundation
import Testing
import TestSupport

/// FFmpeg blocks the thread it runs on (a network read waits up to its timeout). Sessions give it the media
/// executor's threads; on one of the cooperative pool's (one per core, two on the project's machine) it would stop
/// every other test's async code until it returned — the whole test process held, then a burst of late verdicts.
/// The kit's real media runs where the live environment runs it, every call checked.
@Suite struct KitThreadBehaviourTests {
    var kit: SessionKit {
        var kit = SessionKit()
        kit.realMedia = true
        return kit
    }

    @Test func realMedia_opensAndDecodesOnTheMediaExecutor_forASessionAPodAndAFleet() async throws {
        let kit = kit
        let single = try await kit.run(cli: ["--vast", "media/demo.xml", "--dry-run"])
        #expect(single.summary.outcome == .completed)
        let pod = try await kit.run(cli: ["--vast", "media/pods/pod.xml", "--dry-run"])
        #expect(pod.summary.outcome == .completed)
        let network = try await kit.run(cli: ["--vast", "media/demo.xml", "--dry-run", "--network", "kbps=2000,rtt=50"])
        #expect(network.summary.outcome == .completed)
        let (fleet, _) = try await kit.fleet(cli: ["fleet", "--vast", "media/demo.xml", "--sessions", "3", "--decode-each"])
        #expect(try fleet.get().population.endings["completed"] == 3)
        #expect(kit.mediaOffItsThreads.withLock { $0 } == [])
    }
}
