import Foundation
import Primitives
import Testing
import TestSupport
@testable import vplay

/// The result of running the built `vplay` binary.
struct Invocation {
    var status: Int32
    var stdout: String
    var stderr: String
    /// stdout parsed as JSON Lines.
    var lines: [[String: Any]] {
        stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

/// Runs the built binary without blocking a thread of the test runner's (2-thread) cooperative pool: output goes to
/// files and the exit is awaited.
func vplay(_ arguments: [String], in directory: URL = Repo.root) async throws -> Invocation {
    try await runProcess(Repo.vplayBinary, arguments, in: directory)
}

/// `executable arguments…` in `directory`, stdout and stderr to files; its exit status and both outputs.
func runProcess(_ executable: String, _ arguments: [String], in directory: URL = Repo.root) async throws -> Invocation {
    let folder = try TemporaryFolder()
    let outURL = folder.url.appendingPathComponent("stdout"), errURL = folder.url.appendingPathComponent("stderr")
    _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
    let process = LeakSanitizer.ignore(Process())
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = try FileHandle(forWritingTo: outURL)
    process.standardError = try FileHandle(forWritingTo: errURL)
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do { try process.runAlone() } catch { process.terminationHandler = nil; continuation.resume(throwing: error) }
    }
    return Invocation(status: status, stdout: try String(contentsOf: outURL, encoding: .utf8), stderr: try String(contentsOf: errURL, encoding: .utf8))
}

/// The JSON Lines file at `path` (a beacon log, a saved stdout), one object per line.
func jsonLines(_ path: String) throws -> [[String: Any]] {
    try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
}

/// `vplay` as a user runs it: the README's commands, the JSON Lines contract, the exit codes.
@Suite struct CLITests {
    /// Only a process shows the JSON Lines contract on stdout: one object a line, the summary last, exit 0.
    @Test func demoDryRunJSON_printsTheContractWithQuartilesAtExactly25_50_75Percent() async throws {
        let run = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--json", "--now", "2026-01-01T00:00:00Z"])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.lines
        #expect(lines.count == run.stdout.split(separator: "\n").count, "every stdout line is one JSON object")
        let events = lines.filter { $0["kind"] as? String == "event" }
        func event(_ name: String) -> [String: Any]? { events.first { $0["name"] as? String == name } }
        for (name, time) in [("impression", 0.0), ("start", 0.0), ("firstQuartile", 2.5), ("midpoint", 5.0), ("thirdQuartile", 7.5), ("complete", 10.0)] {
            let found = try #require(event(name), "\(name) missing")
            #expect(found["playhead"] as? Double == time, "\(name)")
            #expect(found["clock"] as? Double == time, "\(name)")
        }
        #expect(events.map { $0["name"] as! String }.filter { ["firstQuartile", "midpoint", "thirdQuartile", "complete"].contains($0) }
            == ["firstQuartile", "midpoint", "thirdQuartile", "complete"])
        let beacons = lines.filter { $0["kind"] as? String == "beacon" }
        #expect(beacons.count == 12, "8 playback events, companion creativeView, closeLinear when the end card closes, 2 progress")
        #expect(beacons.allSatisfy { $0["status"] is NSNull && $0["url"] is String && $0["dryRun"] as? Bool == true })
        let midpoint = try #require(beacons.first { $0["event"] as? String == "midpoint" })
        #expect((midpoint["url"] as! String).contains("pos=00%3A00%3A05.000"))
        let summary = try #require(lines.last)
        #expect(summary["kind"] as? String == "summary")
        #expect(summary["outcome"] as? String == "completed" && summary["exitCode"] as? Int == 0)
    }

    @Test func runSubcommand_isTheSameAsTheDefault() throws {
        let arguments = ["--vast", "media/demo.xml", "--dry-run", "--json", "--now", "0"]
        let implicit = try CLI.parse(RunCommand.self, arguments), explicit = try CLI.parse(RunCommand.self, ["run"] + arguments)
        var a = "", b = ""
        dump(implicit.sessionConfiguration(), to: &a)
        dump(explicit.sessionConfiguration(), to: &b)
        #expect(a == b && implicit.json && explicit.json)
    }

    /// `--media-file 9` on an ad with one file: the user's mistake, a usage error naming the files — in `run` and
    /// `inspect` alike — and nothing is fired (it sent 403 to the ad server's Error URL, exit 4, and inspect said 3).
    /// Only a process shows exit 2 for run, inspect and fleet, the error line on stdout, fleet's message on stderr.
    @Test func mediaFileTheAdDoesNotHave_isAUsageError_inRunAndInspect_firingNothing() async throws {
        let run = try await vplay(["--vast", "media/demo.xml", "--media-file", "9", "--json", "--dry-run"])
        #expect(run.status == 2, "exit \(run.status)")
        #expect(!run.lines.contains { $0["kind"] as? String == "beacon" }, "nothing fired")
        let error = try #require(run.lines.first { $0["kind"] as? String == "error" })
        #expect(error["type"] as? String == "usage" && (error["message"] as? String)?.contains("#1 (id demo-360p)") == true, "\(error)")
        let inspect = try await vplay(["inspect", "--vast", "media/demo.xml", "--media-file", "9"])
        #expect(inspect.status == 2, "exit \(inspect.status)")
        let fleet = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "2", "--sink", "--media-file", "9"])
        #expect(fleet.status == 2 && fleet.stderr.contains("--media-file 9: the ad has no MediaFile"), "exit \(fleet.status): \(fleet.stderr)")
        // By its id the file is the ad's own: the command line parses, and the session plays it (MediaFallbackBehaviourTests).
        #expect(CLI.usageError(["--vast", "media/demo.xml", "--media-file", "demo-360p", "--dry-run"]) == nil)
    }

    /// Only a process shows `vplay probe --decode --json` on stdout, exit 0, against ffprobe's count of the file.
    @Test func probeDecodeJSON_matchesFFprobe() async throws {
        let path = Repo.media("clip-10s-360p.mp4")
        let run = try await vplay(["probe", path, "--decode", "--json"])
        #expect(run.status == 0)
        let object = try #require(run.lines.first)
        let truth = try await ProbeTruth.of(path)
        #expect(object["duration"] as? Double == truth.duration)
        #expect((object["format"] as? String)?.contains("mp4") == true)
        let streams = try #require(object["streams"] as? [[String: Any]])
        #expect(streams.count == 2)
        for stream in streams {
            #expect(stream["frames"] as? Int == truth.frames[stream["index"] as! Int])
        }
        #expect(streams[0]["type"] as? String == "video" && streams[0]["codec"] as? String == "h264")
        #expect(streams[0]["width"] as? Int == 640 && streams[0]["height"] as? Int == 360 && streams[0]["fps"] as? Double == 24)
    }

    /// Only a process shows the exit statuses a tag that cannot be read ends with (3) — no such file (301), not XML
    /// (100) — and media cut short (4), with the summary still the last line. What the session finds is
    /// `RunOutcomeBehaviourTests`.
    @Test func unreadableTagAndTruncatedMedia_exitCodes() async throws {
        let folder = try TemporaryFolder()
        let clip = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
        _ = try folder.write("clip-10s-360p.mp4", clip.prefix(clip.count / 2))
        _ = try folder.write("demo.xml", try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8))
        let cases: [(String, Int32, Int)] = [("media/no-such-tag.xml", 3, 301), (try folder.write("bad.xml", "this is not xml <"), 3, 100),
                                             (folder.url.appendingPathComponent("demo.xml").path, 4, 405)]
        for (tag, status, code) in cases {
            let run = try await vplay(["--vast", tag, "--json", "--dry-run"])
            #expect(run.status == status, "\(tag): \(run.stderr)")
            #expect(run.lines.contains { $0["kind"] as? String == "error" && $0["code"] as? Int == code }, "\(tag)")
            #expect(run.lines.last?["kind"] as? String == "summary")
        }
    }

    @Test func probeMissingFile_exits4WithOneLineError() async throws {
        let run = try await vplay(["probe", "media/no-such-clip.mp4"])
        #expect(run.status == 4)
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stderr.hasPrefix("vplay: error: VAST 401: "))
    }

    /// The real binary: a value its option does not take (refused while parsing), options that do not go together
    /// (refused by `validate()`), an unknown option and a missing argument each exit 2 (not ArgumentParser's 64),
    /// with the message on stderr and nothing on stdout.
    @Test(arguments: [
        (["--vast", "media/demo.xml", "--speed", "-1"], "--speed must be from 0.001 to 1000"),
        (["--vast", "media/demo.xml", "--screen", "big"], "--screen must look like 1280x720"),
        (["--vast", "media/demo.xml", "--clock", "virtual", "--speed", "2"], "--speed plays in real time; it does not go with --clock virtual"),
        (["fleet", "--vast", "media/demo.xml", "--sink-fault", "500@/midpoint"], "--sink-fault needs --sink or --sink-all"),
        (["--vast", "media/demo.xml", "--nope"], "Unknown option '--nope'"),
        (["--nope"], "Missing expected argument '--vast <path|url>'"),
        (["probe"], "Missing expected argument '<location>'"),
    ])
    func usageErrors_exit2(_ arguments: [String], _ message: String) async throws {
        let run = try await vplay(arguments)
        #expect(run.status == 2, "\(arguments): \(run.stderr)")
        #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    /// Numbers too large for the millisecond durations and 32-bit counts they become used to stop vplay with a Swift
    /// trap (exit 132, no report); each is now a usage error naming its option, found before anything runs.
    @Test(arguments: [
        ["--beacon-timeout", "1e300"], ["--beacon-drain", "1e300"], ["--close-delay", "1e300"], ["--tag-timeouts", "1e300,4"],
        ["--reward-at", "1e300s"], ["--video-close", "1e300s"], ["--clock", "realtime", "--speed", "1e300"],
        ["--clock", "realtime", "--speed", "1e-300"], ["--threads", "99999999999"], ["--now", "9223372036854775807"],
        ["--beacon-concurrency", "9223372036854775807"],
    ])
    func hugeNumbers_areUsageErrors_notCrashes(_ options: [String]) {
        let error = CLI.usageError(["--vast", "media/demo.xml", "--dry-run"] + options)
        #expect(error?.contains(options[options.count - 2]) == true, "the message names the option: \(error ?? "no usage error")")
    }

    @Test(arguments: [["--rate", "1e-300"], ["--rate", "1e300"], ["--beacon-timeout", "1e300"], ["--beacon-drain", "1e300"],
                      ["--beacon-concurrency", "9223372036854775807"], ["--now", "9223372036854775807"]])
    func fleetHugeNumbers_areUsageErrors_notCrashes(_ options: [String]) {
        let error = CLI.usageError(["fleet", "--vast", "media/demo.xml", "--sessions", "1", "--dry-run"] + options)
        #expect(error?.contains(options[0]) == true, "the message names the option: \(error ?? "no usage error")")
    }
}

@Suite struct ConsoleTests {
    /// Only a process shows its output on pipes, not a terminal: no ANSI escapes, no live line, the summary table.
    @Test func pipedOutput_hasNoColourCodes_andTheSummaryTable() async throws {
        let run = try await vplay(["--vast", "media/demo.xml", "--dry-run", "--script", "skip@4,skip@6"])
        #expect(run.status == 0)
        #expect(!run.stdout.contains("\u{1B}["), "no ANSI escapes when stdout is not a terminal")
        #expect(!run.stderr.contains("\u{1B}["), "no live status line when stderr is not a terminal")
        for row in ["  events ", "  beacons ", "  ending    skipped", "  reward    not granted", "  frames "] {
            #expect(run.stdout.contains(row), "\(row)")
        }
        #expect(run.stdout.contains("rejected (skip: not skippable until 5.000 s"))
    }
}

/// The console on a real terminal (a pseudo-terminal from util-linux's `script`): colour unless `NO_COLOR` is set
/// to something, and in real time a live line with what a viewer sees.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux `script` gives the test a terminal"))
struct TerminalConsoleTests {
    func onTerminal(_ arguments: [String], noColor: String?) async throws -> String {
        let command = ([Repo.vplayBinary] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let folder = try TemporaryFolder()
        let outURL = folder.url.appendingPathComponent("tty")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        let process = LeakSanitizer.ignore(Process())
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", command, "/dev/null"]
        process.currentDirectoryURL = Repo.root
        var environment = ProcessInfo.processInfo.environment
        environment["TERM"] = "xterm"
        environment["NO_COLOR"] = noColor
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.runAlone() } catch { process.terminationHandler = nil; continuation.resume(throwing: error) }
        }
        #expect(status == 0)
        return try String(contentsOf: outURL, encoding: .utf8)
    }

    @Test func terminal_isColoured_unlessNoColorIsSetToSomething() async throws {
        let coloured = try await onTerminal(["--vast", "media/demo.xml", "--dry-run"], noColor: nil)
        #expect(coloured.contains("\u{1B}[32m"), "green on a terminal")
        let empty = try await onTerminal(["--vast", "media/demo.xml", "--dry-run"], noColor: "")
        #expect(empty.contains("\u{1B}[32m"), "an empty NO_COLOR does not count (no-color.org)")
        let plain = try await onTerminal(["--vast", "media/demo.xml", "--dry-run"], noColor: "1")
        #expect(!plain.contains("\u{1B}[3"), "no colour with NO_COLOR=1")
        #expect(plain.contains("summary: completed (exit 0)"))
    }

    @Test func realTimeOnATerminal_showsTheCountdownTheSkipControlAndTheReward() async throws {
        let screen = try await onTerminal(["--vast", "media/demo.xml", "--dry-run", "--speed", "10"], noColor: "1")
        #expect(screen.contains("/ 10.0 s · ends in"))
        #expect(screen.contains("skip in"), "before the skip offset, the countdown to the skip control")
        #expect(screen.contains("[Skip ›]"), "at 5 s the skip control")
        #expect(screen.contains("Coins: pending") && screen.contains("Coins: granted"))
    }
}

/// The README shows what the demo command prints: its summary block is checked against a real run of that command,
/// so the README cannot drift from the binary.
@Suite struct ReadmeDemoTests {
    /// Only a process shows the demo command's stdout, which the README quotes: the summary block, the sink line.
    @Test func readmeDemoSummary_isWhatTheDemoCommandPrints() async throws {
        let readme = try String(contentsOfFile: Repo.root.appendingPathComponent("README.md").path, encoding: .utf8)
        let start = try #require(readme.range(of: "summary: completed (exit 0)\n"))
        let block = readme[start.lowerBound...].prefix { $0 != "`" }
        let expected = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        #expect(expected.count >= 8)
        let run = try await vplay(["--vast", "media/demo.xml", "--sink"])
        #expect(run.status == 0, "\(run.stderr)")
        let actual = Set(run.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        for line in expected { #expect(actual.contains(line), "README line not printed by the demo: \(line)") }
        #expect(run.stdout.contains("sink: 12 received, 12 of 12 sent matched"))
    }
}
