import Foundation
import Primitives
import Testing
import TestSupport
@testable import AdSession
import PlayerEngine

/// Records, for every open and frame, whether it ran on the session's media executor.
final class WhereMediaRuns: MediaOpening, @unchecked Sendable {
    let executor: BlockingExecutor
    let calls = Locked<[Bool]>([])
    init(executor: BlockingExecutor) { self.executor = executor }

    func open(_ location: String, options: MediaOpenOptions) throws(MediaError) -> any MediaSource {
        calls.withLock { $0.append(executor.isCurrent) }
        return Spy(inner: try FFmpegMediaOpener().open(location, options: options), owner: self)
    }

    func openForDemux(_ location: String) throws(MediaError) -> any PacketSource {
        calls.withLock { $0.append(executor.isCurrent) }
        return try FFmpegMediaOpener().openForDemux(location)
    }

    final class Spy: MediaSource {
        let inner: any MediaSource
        let owner: WhereMediaRuns
        init(inner: any MediaSource, owner: WhereMediaRuns) {
            self.inner = inner
            self.owner = owner
        }
        var info: MediaInfo { inner.info }
        var statistics: DecodeStatistics { inner.statistics }
        func nextFrame() throws(MediaError) -> MediaFrame? {
            owner.calls.withLock { $0.append(owner.executor.isCurrent) }
            return try inner.nextFrame()
        }
    }
}

/// FFmpeg blocks its thread (network reads wait up to their timeouts): a session opens and decodes its media on
/// the environment's media executor, never on Swift's cooperative pool.
@Suite struct MediaExecutorTests {
    @Test func session_opensAndDecodesEveryFrameOnTheMediaExecutor() async {
        var configuration = SessionConfiguration(tag: Repo.media("demo.xml"))
        configuration.dryRun = true
        configuration.now = 0
        let executor = BlockingExecutor(threads: 2, name: "test.media")
        let spy = WhereMediaRuns(executor: executor)
        var environment = SessionEnvironment.live(configuration)
        environment.media = spy
        environment.mediaExecutor = executor
        let summary = await AdSessionRunner(configuration: configuration, environment: environment).run { _ in }
        #expect(summary.outcome == .completed)
        let calls = spy.calls.withLock { $0 }
        #expect(calls.count > 300, "the open and every frame of the 10 s clip")
        #expect(calls.allSatisfy { $0 }, "\(calls.filter { !$0 }.count) of \(calls.count) ran elsewhere")
    }
}
