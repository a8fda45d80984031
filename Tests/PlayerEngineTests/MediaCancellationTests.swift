import Foundation
import Primitives
import TestSupport
import Testing
@_spi(LiveParts) @testable import PlayerEngine

/// Issue 37, items 10 and 11: a signal cancels the session's task, and FFmpeg, blocked in a load or a segment fetch,
/// is told to give up at once through its interrupt callback, not when the media deadlines pass. The deadlines here
/// are ten minutes, so a test ends only if cancelling ends the wait (the suite's hang limit is the same ten minutes).
@Suite(.hangLimit) struct MediaCancellationTests {
    static let farDeadline: Duration = .seconds(600)

    /// Runs `body` on the media executor in a task of its own, waits until `ready` says FFmpeg is blocked where the
    /// test wants it, cancels the task and returns what `body` returned.
    func cancelled<T: Sendable>(when ready: @escaping @Sendable () -> Bool,
                                _ body: @escaping @Sendable () throws(MediaError) -> T) async throws -> Result<T, MediaError> {
        let task = Task {
            await withTaskExecutorPreference(BlockingExecutor.shared) { () async -> Result<T, MediaError> in
                do throws(MediaError) { return .success(try body()) } catch { return .failure(error) }
            }
        }
        while !ready() { try await Task.sleep(for: .milliseconds(10)) }
        task.cancel()
        return await task.value
    }

    @Test func cancellingALoadThatWaitsOnASilentServer_endsIt() async throws {
        let asked = Locked(0)
        let server = try ScriptedHTTPServer { _ in
            asked.withLock { $0 += 1 }
            return .stall(for: .seconds(900))
        }
        defer { server.stop() }
        let url = "\(server.baseURL)/silent.mp4"
        var options = MediaOpenOptions(ioTimeout: Self.farDeadline)
        options.loadTimeout = Self.farDeadline
        let opening = options
        let result = try await cancelled(when: { asked.withLock { $0 } > 0 }) { () throws(MediaError) -> String in
            try FFmpegMediaSource(location: url, options: opening).info.location
        }
        guard case let .failure(error) = result else { Issue.record("the silent server's media opened: \(result)"); return }
        #expect(error.kind != "load-timed-out", "\(error)")
        #expect(asked.withLock { $0 } == 1)
    }

    @Test func cancellingPlaybackWhileASegmentIsFetched_endsTheRead() async throws {
        let root = URL(fileURLWithPath: try await HLSFixture.root(), isDirectory: true)
        let asked = Locked<[String]>([])
        let server = try ScriptedHTTPServer { target in
            asked.withLock { $0.append(target) }
            return target == "/hi/seg2.ts" ? .stall(for: .seconds(900)) : ScriptedHTTPServer.fileReply(for: target, in: root)
        }
        defer { server.stop() }
        let url = "\(server.baseURL)/hi/index.m3u8"
        var options = MediaOpenOptions.streamingManifests
        options.ioTimeout = Self.farDeadline
        options.loadTimeout = Self.farDeadline
        let opening = options
        let frames = Locked(0)
        let result = try await cancelled(when: { asked.withLock { $0.contains("/hi/seg2.ts") } }) { () throws(MediaError) -> Int in
            let source = try FFmpegMediaSource(location: url, options: opening)
            while try source.nextFrame() != nil { frames.withLock { $0 += 1 } }
            return frames.withLock { $0 }
        }
        // Two segments (4 s) decoded; the read that waited for the third ended when the task was cancelled.
        guard case .failure = result else { Issue.record("decoded to the end past a silent segment: \(result)"); return }
        #expect(frames.withLock { $0 } > 0)
        #expect(!asked.withLock { $0 }.contains("/hi/seg3.ts"))
    }
}
