import Primitives
import Foundation
import Testing
import TestSupport

/// SIGINT and SIGTERM during a real-time run, beyond what `OutputFilesTests` (logs and HAR marked interrupted) and
/// `RegressionWorkflowTests` (a signal echoed within a moment) check: the sink is reconciled and stopped, and a
/// second signal exits at once even when the first one's orderly shutdown cannot finish.
@Suite struct SignalTests {
    /// Reads what `fd` has now without blocking (the descriptor is a pipe the test reads).
    static func readAvailable(_ fd: Int32) -> String {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var waiting = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&waiting, 1, 0) > 0, waiting.revents & Int16(POLLIN) != 0 else { return text }
            let count = read(fd, &buffer, buffer.count)
            guard count > 0 else { return text }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
    }

    /// Polls (every 20 ms, not a fixed sleep) until `done` holds.
    static func waitUntil(_ done: () throws -> Bool) async throws {
        while try !done() { try await Task.sleep(for: .milliseconds(20)) }
    }

    /// Real time with the embedded sink, paused from 3 s to 120 s so that the session is surely under way when the
    /// signal comes. The interrupted run still matches what it sent against what its sink received, then stops the
    /// sink and exits 130.
    @Test(.hangLimit)
    func sigint_duringARunWithTheSink_reconcilesWhatWasSentStopsTheSinkAndExits130() async throws {
        let running = try RunningVPlay(["--vast", Repo.media("demo.xml"), "--sink", "--json", "--clock", "realtime",
                                        "--script", "pause@3,resume@120"], in: try TemporaryFolder(), killAfter: .seconds(100))
        try await running.waitForOutput(containing: #""name":"pause""#)
        running.child.signal(SIGINT)
        let exit = await running.exit.value
        #expect(!exit.killed && exit.status == 130, "stderr: \(running.errors)")
        let lines = try jsonLines(running.stdout.path)
        let beacons = lines.filter { $0["kind"] as? String == "beacon" }
        #expect(beacons.count >= 5, "loaded, impression, creativeView, start, progress, firstQuartile… before the pause")
        let reconciliation = try #require(lines.first { $0["kind"] as? String == "reconciliation" })
        #expect(reconciliation["sent"] as? Int == beacons.count && reconciliation["received"] as? Int == beacons.count
                && reconciliation["matched"] as? Int == beacons.count, "\(reconciliation)")
        #expect((reconciliation["missing"] as? [Any])?.isEmpty == true && (reconciliation["unexpected"] as? [Any])?.isEmpty == true)
        let summary = try #require(lines.last)
        #expect(summary["kind"] as? String == "summary" && summary["outcome"] as? String == "interrupted" && summary["exitCode"] as? Int == 130)
        #expect((summary["sink"] as? [String: Any])?["matched"] as? Int == beacons.count)
    }

    /// A VMAP run stopped during the content between breaks (real time; the app in the background from content 1 s for
    /// 3,000 s, so the signal surely comes before the mid-roll on any machine): the break that played
    /// is reported and reconciled, no later break starts, and the summary says interrupted with the schedule so far.
    @Test(.hangLimit)
    func sigint_duringTheContentOfAVMAPRun_keepsTheBreakThatPlayed_andExits130() async throws {
        let running = try RunningVPlay(["--vmap", Repo.media("vmap/demo.xml"), "--sink", "--json", "--clock", "realtime", "--speed", "10",
                                        "--content-script", "background@1=3000"], in: try TemporaryFolder(), killAfter: .seconds(100))
        try await running.waitForOutput(containing: #""kind":"break""#)
        running.child.signal(SIGINT)
        let exit = await running.exit.value
        #expect(!exit.killed && exit.status == 130, "stderr: \(running.errors)")
        let lines = try jsonLines(running.stdout.path)
        #expect(lines.filter { $0["kind"] as? String == "break" }.map { $0["outcome"] as? String } == ["played"])
        let beacons = lines.filter { $0["kind"] as? String == "beacon" }
        let reconciliation = try #require(lines.first { $0["kind"] as? String == "reconciliation" })
        #expect(reconciliation["matched"] as? Int == beacons.count && beacons.count >= 8, "\(reconciliation)")
        let summary = try #require(lines.last)
        #expect(summary["outcome"] as? String == "interrupted" && summary["exitCode"] as? Int == 130)
        #expect(((summary["vmap"] as? [String: Any])?["breaks"] as? [Any])?.count == 1)
    }

    /// The first signal starts an orderly stop that cannot finish (stdout is a pipe nobody reads, already full, so
    /// writing the summary blocks); a second signal after the 1 s echo grace (`SignalWatch.grace`) exits at once
    /// with 128 + its number. The test signals again every 250 ms until the exit: those within the grace are taken
    /// for echoes of the first.
    @Test(.hangLimit)
    func secondSignal_afterTheEchoGrace_exitsAtOnce_evenWhenTheOrderlyStopIsStuck() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd); close(writeEnd) }
        // F_SETPIPE_SZ (1031) and F_GETPIPE_SZ (1032): a one-page pipe, so the test can fill it.
        _ = fcntl(writeEnd, 1031, 4096)
        let capacity = fcntl(writeEnd, 1032)
        #expect(capacity == 4096)
        let folder = try TemporaryFolder()
        let errURL = folder.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let err = try FileHandle(forWritingTo: errURL)
        let child = try SpawnedVPlay(["--vast", Repo.media("demo.xml"), "--dry-run", "--json", "--clock", "realtime",
                                      "--script", "pause@3,resume@120"], stdout: writeEnd, stderr: err.fileDescriptor)
        try err.close()
        let exited = Task { await child.exit(killAfter: .seconds(40)) }
        var output = ""
        try await Self.waitUntil {
            output += Self.readAvailable(readEnd)
            return output.contains(#""name":"pause""#)
        }
        // Paused until 120 s: vplay writes nothing more until signalled. Fill the pipe (empty now, so a write of its
        // capacity fits at once); vplay's next write to stdout blocks.
        output += Self.readAvailable(readEnd)
        let filler = [UInt8](repeating: UInt8(ascii: "\n"), count: Int(capacity))
        #expect(write(writeEnd, filler, filler.count) == filler.count)

        child.signal(SIGINT)
        try await Self.waitUntil { try String(contentsOf: errURL, encoding: .utf8).contains("interrupted") }
        let firstSignal = ContinuousClock.now
        // SIGTERM every 250 ms from a thread of its own, and the exit's time as its waiting thread saw it: what is
        // timed is vplay, not how soon this test's tasks get a cooperative thread in a busy test process.
        let terminating = Locked(true)
        Thread.detachNewThread {
            while terminating.withLock({ $0 }) {
                child.signal(SIGTERM)
                usleep(250_000)
            }
        }
        let exit = await exited.value
        terminating.withLock { $0 = false }
        #expect(!exit.killed, "the second signal did not end it")
        #expect(exit.status == 128 + SIGTERM, "exited by the second signal, not by the first one's stop: \(exit.status)")
        #expect(firstSignal.duration(to: exit.ended) < .seconds(10), "about the 1 s grace after the first signal")
        // All that is in the pipe is the test's own filler: the orderly stop never got a byte of its summary out.
        #expect(Self.readAvailable(readEnd) == String(repeating: "\n", count: Int(capacity)))
    }
}
