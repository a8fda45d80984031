import Foundation
import Primitives
import Testing
import TestSupport

/// Runs that must stop when told to, or not hang to begin with: a signal during the end-of-session beacon drain, a
/// fleet told to stop, media and tags that are FIFOs. Each bound below is an upper bound on a loaded machine, far
/// under what the broken behaviour took (the whole 60 s drain, 39 s for a fleet, for ever for a FIFO).
@Suite(.hangLimit) struct StopTests {
    /// The sink never answers `/closeLinear`, the last beacon, so the session ends in its drain (300 s here). Ctrl-C
    /// then stops the wait about 2 s later (`AdSessionRunner.interruptedDrain`); the hung beacon is recorded as
    /// unanswered and the run exits 130 with its summary. The beacon's own timeout is as long as the drain: with
    /// 60 s, a whole-suite run once saw the closeLinear line only after the beacon had timed out (it was then
    /// `timedOut`, not unanswered), a verdict that depended on the machine's load.
    @Test func sigint_duringTheBeaconDrain_endsTheWaitInAboutTwoSeconds_notTheWholeDrain() async throws {
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("beacons.jsonl").path
        let running = try RunningVPlay(["--vast", Repo.media("demo.xml"), "--json", "--sink", "--sink-fault", "hang@/closeLinear",
                                        "--beacon-drain", "300", "--beacon-timeout", "300", "--beacons", log],
                                       in: folder, killAfter: .seconds(400))
        try await running.waitForOutput(containing: #""name":"closeLinear""#)
        // The event line is written as the beacon is submitted: the drain is under way (or about to be).
        let (exit, afterSignal) = await running.signalAndWait(SIGINT)
        #expect(!exit.killed && exit.status == 130, "exit \(exit.status): \(running.errors)")
        #expect(afterSignal < .seconds(30), "stopped \(afterSignal) after the signal; the drain was 300 s")
        let hung = try #require(try jsonLines(log).first { $0["event"] as? String == "closeLinear" })
        #expect(hung["errorCode"] as? String == "unansweredAtSessionEnd", "\(hung)")
        let summary = try String(contentsOf: running.stdout, encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
        // The ad itself completed before the signal; the summary's exit code says the run was interrupted.
        #expect(summary.contains(#""kind":"summary""#) && summary.contains(#""exitCode":130"#), "\(summary)")
    }

    /// A fleet of 20,000 sessions told to stop: no new session starts, the drain waits 2 s at most, the report
    /// of what ran is printed and the exit is 143. (20,000 is far more than a debug build plays before the signal;
    /// the report's oracle still predicts every configured session, about 1.2 s for 100,000 in a debug build alone
    /// and twenty times that in a whole-suite run, which took a 100,000-session fleet past the bound.)
    @Test func sigterm_toAFleet_stopsStartingSessions_andExits143WithItsReport() async throws {
        let server = try ScriptedHTTPServer { _ in .body(Data("GIF89a".utf8), contentType: "image/gif") }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let text = try DemoTags.text()
            .replacingOccurrences(of: "http://127.0.0.1:8089", with: server.baseURL)
        let tag = try folder.write("demo.xml", text)
        let running = try RunningVPlay(["fleet", "--vast", tag, "--sessions", "20000", "--concurrency", "16", "--seed", "2"],
                                       in: folder, killAfter: .seconds(150))
        while server.requests().count < 200 {
            #expect(!running.child.hasExited, "the fleet ended before it was signalled: \(running.errors)")
            if running.child.hasExited { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        let (exit, afterSignal) = await running.signalAndWait(SIGTERM)
        #expect(!exit.killed && exit.status == 143, "exit \(exit.status): \(running.errors)")
        #expect(afterSignal < .seconds(30), "stopped \(afterSignal) after the signal")
        let report = try String(contentsOf: running.stdout, encoding: .utf8)
        #expect(report.contains("of 20000 sessions"), "\(report.prefix(400))")
        #expect(server.requests().count < 40_000, "far fewer beacons than the whole fleet's")
    }

    /// A MediaFile that is a FIFO: opening it would block until a writer comes, where no timeout or signal reaches.
    /// It is refused at once (405: not a file vplay can play). A tag that is a FIFO with no writer reads as empty
    /// (no ad, 303) instead of waiting for one.
    /// Only a process shows the exit status (4, then 3) of runs that would otherwise hang until a watchdog kill.
    @Test func fifoMediaAndFifoTag_endAtOnce_insteadOfBlockingForEver() async throws {
        let folder = try TemporaryFolder()
        let media = folder.url.appendingPathComponent("clip.mp4").path
        #expect(mkfifo(media, 0o600) == 0)
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(media)]]>")
        let tag = try folder.write("demo.xml", text)
        let (run, exit) = try await measuredVPlay(["--vast", tag, "--json", "--dry-run"], killAfter: .seconds(60))
        #expect(!exit.killed && exit.status == 4, "exit \(exit.status): \(run.stderr)")
        let error = try #require(run.lines.first { $0["kind"] as? String == "error" })
        #expect(error["code"] as? Int == 405 && (error["message"] as? String)?.contains("FIFO") == true, "\(error)")

        let tagFIFO = folder.url.appendingPathComponent("tag.xml").path
        #expect(mkfifo(tagFIFO, 0o600) == 0)
        let (empty, emptyExit) = try await measuredVPlay(["--vast", tagFIFO, "--json", "--dry-run"], killAfter: .seconds(60))
        #expect(!emptyExit.killed && emptyExit.status == 3, "exit \(emptyExit.status): \(empty.stderr)")
        #expect(empty.lines.first { $0["kind"] as? String == "error" }?["code"] as? Int == 303)
    }
    /// Ctrl-C when stderr is a broken pipe: the "interrupted" notice cannot be written, and the run still stops in
    /// order (it trapped inside FileHandle.write, so the report and summary were lost).
    @Test func sigint_withStderrABrokenPipe_stillStopsInOrder_andExits130() async throws {
        let folder = try TemporaryFolder()
        let out = folder.url.appendingPathComponent("stdout")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        let handle = try FileHandle(forWritingTo: out)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])  // nobody reads stderr
        let child = try SpawnedVPlay(["--vast", Repo.media("demo.xml"), "--json", "--clock", "realtime", "--script", "pause@1,resume@120"],
                                     stdout: handle.fileDescriptor, stderr: ends[1])
        close(ends[1])
        try? handle.close()
        let exit = Task { await child.exit(killAfter: .seconds(60)) }
        while try !String(contentsOf: out, encoding: .utf8).contains(#""name":"pause""#) {
            if child.hasExited { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        child.signal(SIGINT)
        let ended = await exit.value
        #expect(!ended.killed && ended.status == 130, "exit \(ended.status)")
        let last = try String(contentsOf: out, encoding: .utf8).split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains(#""kind":"summary""#) && last.contains(#""exitCode":130"#), "\(last)")
    }
    /// Ctrl-C while a wrapper's target is loading: an interruption is not an ad error. No Error URL is told
    /// anything (it got 301 "cancelled" before), nothing plays, the summary says interrupted, the exit is 130.
    @Test func sigint_whileAWrapperLoads_firesNoError_andReportsInterrupted() async throws {
        // The server signals vplay itself, from its own thread, the moment the wrapper's target is requested: the
        // resolution's 28 s budget would end the load if the signal waited for this test's task, which a busy test
        // process can starve for longer than that.
        let child = Locked<SpawnedVPlay?>(nil)
        let server = try ScriptedHTTPServer { target in
            guard target.hasPrefix("/tag") else { return .body(Data("GIF89a".utf8), contentType: "image/gif") }
            // The child is known a moment after it starts; it cannot have requested anything much sooner.
            for _ in 0..<1000 where child.withLock({ $0 }) == nil { usleep(10_000) }
            child.withLock { $0 }?.signal(SIGINT)
            return .stall(for: .seconds(600))
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let tag = try folder.write("wrapper.xml", """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>t</AdSystem>
            <VASTAdTagURI><![CDATA[\(server.baseURL)/tag]]></VASTAdTagURI>
            <Error><![CDATA[\(server.baseURL)/err?code=[ERRORCODE]]]></Error>
            <Impression><![CDATA[\(server.baseURL)/imp]]></Impression>
            </Wrapper></Ad></VAST>
            """)
        let running = try RunningVPlay(["--vast", tag, "--json", "--tag-timeouts", "600,600"], in: folder, killAfter: .seconds(700))
        child.withLock { $0 = running.child }
        let exit = await running.exit.value
        #expect(server.requests().contains { $0.target == "/tag" }, "the wrapper's target was requested, and the signal sent then")
        #expect(!exit.killed && exit.status == 130, "exit \(exit.status): \(running.errors)")
        #expect(server.requests().map(\.target) == ["/tag"], "no Error URL, no impression: \(server.requests().map(\.target))")
        let lines = try jsonLines(running.stdout.path)
        #expect(!lines.contains { $0["kind"] as? String == "error" }, "no ad error reported")
        let summary = try #require(lines.last)
        #expect(summary["outcome"] as? String == "interrupted" && summary["exitCode"] as? Int == 130, "\(summary)")
    }
}
