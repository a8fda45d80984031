import Foundation
import Testing
import TestSupport

/// Outputs that cannot be written, and outputs that must not destroy what is at their path (issue 14, items 2 and
/// 3): every write is checked (a failed one is told on stderr, the others are still written, exit 2); devices,
/// FIFOs and stdout are written in place; an output that would replace an input or another output is refused.
@Suite struct OutputSafetyTests {
    /// `vplay arguments…` with its stdout on `stdout` (a descriptor the test owns; SIGPIPE at its default, as from a
    /// shell) and its stderr in a file; the exit status and stderr.
    static func spawned(_ arguments: [String], stdout: Int32, in folder: TemporaryFolder) async throws -> (status: Int32, stderr: String) {
        let errors = folder.url.appendingPathComponent("stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let handle = try FileHandle(forWritingTo: errors)
        defer { try? handle.close() }
        let child = try SpawnedVPlay(arguments, stdout: stdout, stderr: handle.fileDescriptor)
        let exit = await child.exit(killAfter: .seconds(60))
        return (exit.status, try String(contentsOf: errors, encoding: .utf8))
    }

    /// The device node at `path`: its type and device number.
    static func node(_ path: String) -> (type: mode_t, device: UInt64) {
        var status = stat()
        guard lstat(path, &status) == 0 else { return (0, 0) }
        return (status.st_mode & S_IFMT, UInt64(status.st_rdev))
    }

    /// glibc's `makedev` (a macro Swift does not see) for small major and minor numbers.
    static func device(_ major: UInt32, _ minor: UInt32) -> dev_t { dev_t((major << 8) | minor) }

    static let demo = ["--vast", Repo.media("demo.xml"), "--dry-run", "--json"]

    // MARK: - Item 2: every write is checked

    @Test func fullDisk_eachOutputFailsAlone_isToldOnStderr_andExits2() async throws {
        for option in ["--beacons", "--report", "--har", "--junit", "--timeline", "--record-expectations"] {
            let folder = try TemporaryFolder()
            let other = option == "--junit" ? "--report" : "--junit"
            let written = folder.url.appendingPathComponent("other.out").path
            let run = try await vplay(Self.demo + [option, "/dev/full", other, written])
            #expect(run.status == 2, "\(option): \(run.stderr)")
            #expect(run.stderr.contains("vplay: error: \(option) /dev/full: cannot write it (No space left on device)"), "\(option): \(run.stderr)")
            #expect((try? Data(contentsOf: URL(fileURLWithPath: written)))?.isEmpty == false, "\(option): \(other) is still written")
            #expect(run.lines.last?["kind"] as? String == "summary", "\(option): the summary is still written")
        }
        #expect(Self.node("/dev/full").type == S_IFCHR)
    }

    @Test func fullDisk_fleetAndMergeReports_exit2() async throws {
        let folder = try TemporaryFolder()
        let shard = folder.url.appendingPathComponent("shard.json").path
        let fleet = try await vplay(["fleet", "--vast", Repo.media("demo.xml"), "--sessions", "2", "--dry-run", "--report", shard])
        #expect(fleet.status == 0, "\(fleet.stderr)")
        let full = try await vplay(["fleet", "--vast", Repo.media("demo.xml"), "--sessions", "2", "--dry-run", "--report", "/dev/full"])
        #expect(full.status == 2 && full.stderr.contains("--report /dev/full: cannot write it (No space left on device)"), "\(full.stderr)")
        let merge = try await vplay(["merge", shard, "--report", "/dev/full"])
        #expect(merge.status == 2 && merge.stderr.contains("--report /dev/full: cannot write it (No space left on device)"), "\(merge.stderr)")
    }

    /// A reader that went away: vplay's stdout is a pipe whose read end is closed before vplay writes, and SIGPIPE
    /// is at its default. Before, SIGPIPE killed vplay (141) and no file after the first write was written.
    @Test(arguments: [["run"], ["inspect"], ["probe", "--json"]])
    func brokenPipe_onStdout_isToldOnStderr_theOtherOutputsAreWritten_andExits2(_ command: [String]) async throws {
        let folder = try TemporaryFolder()
        let report = folder.url.appendingPathComponent("report.json").path
        let arguments: [String] = switch command[0] {
        case "run": Self.demo + ["--report", report]
        case "inspect": ["inspect", "--vast", Repo.media("demo.xml"), "--json"]
        default: command + [Repo.media("clip-10s-360p.mp4")]
        }
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        let (status, errors) = try await Self.spawned(arguments, stdout: ends[1], in: folder)
        close(ends[1])
        #expect(status == 2, "\(command): \(errors)")
        #expect(errors.contains("vplay: error: stdout: cannot write it (Broken pipe)"), "\(command): \(errors)")
        if command[0] == "run" {
            #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) is [String: Any])
        }
    }

    /// `vplay … >&-`: stdout closed. The files vplay opens must not take its place (descriptor 1), and the writes
    /// that fail are told.
    @Test func closedStdout_isToldOnStderr_theReportIsWritten_andExits2() async throws {
        let folder = try TemporaryFolder()
        let report = folder.url.appendingPathComponent("report.json").path
        let beacons = folder.url.appendingPathComponent("beacons.jsonl").path
        let quoted = ([Repo.vplayBinary] + Self.demo + ["--report", report, "--beacons", beacons]).map { "'\($0)'" }.joined(separator: " ")
        let run = try await shell("exec \(quoted) >&-")
        #expect(run.status == 2, "\(run.stderr)")
        #expect(run.stderr.contains("vplay: error: stdout: cannot write it (Bad file descriptor)"), "\(run.stderr)")
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) is [String: Any])
        let lines = try String(contentsOfFile: beacons, encoding: .utf8).split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.hasPrefix("{\"attempt\"") }, "nothing meant for stdout went into the log")
    }

    /// `/bin/sh -c script`, stdout and stderr to files.
    func shell(_ script: String) async throws -> Invocation {
        try await runProcess("/bin/sh", ["-c", script])
    }

    // MARK: - Item 3: outputs destroy nothing

    /// As root, an atomic write renamed a file over the device node: /dev/null became a regular file for the whole
    /// machine. Devices are written in place now.
    /// Only a process shows what its writes leave at the machine's /dev/null and /dev/full, and its exit 0.
    @Test func devNullAndDevFull_stayCharacterDevices() async throws {
        let null = Self.node("/dev/null")
        #expect(null.type == S_IFCHR)
        let run = try await vplay(Self.demo + ["--report", "/dev/null", "--junit", "/dev/null", "--timeline", "/dev/null", "--har", "/dev/null",
                                               "--beacons", "/dev/null", "--record-expectations", "/dev/null"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.node("/dev/null") == null, "still the same character device")
        _ = try await vplay(Self.demo + ["--report", "/dev/full"])
        #expect(Self.node("/dev/full").type == S_IFCHR)
    }

    /// The same on device nodes of the test's own (the kernel's null and full devices, made with mknod), which a
    /// binary without the fix may replace without harming the machine.
    /// Only a process shows the nodes it wrote still device nodes, and exit 2 with the stderr line for the full one.
    @Test func ownDeviceNodes_areWrittenInPlace() async throws {
        let folder = try TemporaryFolder()
        let null = folder.url.appendingPathComponent("null").path, full = folder.url.appendingPathComponent("full").path
        try #require(mknod(null, S_IFCHR | 0o666, Self.device(1, 3)) == 0 && mknod(full, S_IFCHR | 0o666, Self.device(1, 7)) == 0, "mknod needs root")
        let run = try await vplay(Self.demo + ["--report", null, "--beacons", null, "--har", null])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.node(null) == (S_IFCHR, UInt64(Self.device(1, 3))))
        let failed = try await vplay(Self.demo + ["--report", full])
        #expect(failed.status == 2 && failed.stderr.contains("--report \(full): cannot write it (No space left on device)"), "\(failed.stderr)")
        #expect(Self.node(full) == (S_IFCHR, UInt64(Self.device(1, 7))))
    }

    /// `--report /dev/stdout` goes where stdout goes, after what vplay wrote there, and a file stdout goes to is not
    /// replaced.
    /// Only a process shows the JUnit file on its stdout after the JSON lines it wrote there.
    @Test func devStdout_isStdoutItself() async throws {
        let run = try await vplay(Self.demo + ["--junit", "/dev/stdout"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix(#"{"kind":"resolved""#), "stdout's own lines are kept")
        #expect(run.stdout.contains("<testsuites name=\"vplay\""))
        #expect(Self.node("/dev/stdout").type == S_IFLNK)
    }

    /// Only a process shows the JUnit file it writes into a FIFO the test reads, and the FIFO left a FIFO.
    @Test func fifo_isWrittenInPlace_andStaysAFIFO() async throws {
        let folder = try TemporaryFolder()
        let fifo = folder.url.appendingPathComponent("junit.fifo").path
        try #require(mkfifo(fifo, 0o644) == 0)
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        let run = try await vplay(Self.demo + ["--junit", fifo])
        #expect(run.status == 0, "\(run.stderr)")
        var buffer = [UInt8](repeating: 0, count: 65536)
        let count = read(reader, &buffer, buffer.count)
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).contains("<testsuites name=\"vplay\""))
        #expect(Self.node(fifo).type == S_IFIFO)
    }

    /// `--report ad.xml` overwrote the tag being played; `--beacons clip.mp4` emptied the media before it was opened.
    /// Both are usage errors now, and both files are left as they were.
    /// Only a process shows exit 2 with the stderr line, nothing played on stdout, and both files left byte for byte.
    @Test func anOutputThatIsTheTagOrTheMedia_isAUsageError_andBothAreLeftAlone() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("ad.xml", try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8))
        let clip = folder.url.appendingPathComponent("clip-10s-360p.mp4").path
        try FileManager.default.copyItem(atPath: Repo.media("clip-10s-360p.mp4"), toPath: clip)
        let (tagBytes, clipBytes) = (try Data(contentsOf: URL(fileURLWithPath: tag)), try Data(contentsOf: URL(fileURLWithPath: clip)))
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("sub"), withIntermediateDirectories: true)
        for path in [tag, folder.url.path + "/sub/../ad.xml"] {
            let run = try await vplay(["--vast", tag, "--dry-run", "--json", "--report", path])
            #expect(run.status == 2 && run.stderr.contains("--report \(path): that is the --vast input"), "\(run.stderr)")
            #expect(!run.stdout.contains(#""kind":"event""#), "nothing played")
        }
        let media = try await vplay(["--vast", tag, "--dry-run", "--json", "--beacons", clip])
        #expect(media.status == 2 && media.stderr.contains("--beacons \(clip): that is the media file this ad plays"), "\(media.stderr)")
        #expect(!media.stdout.contains(#""kind":"event""#), "nothing played")
        // A fleet learns the media file when it resolves the tag too: refused before any session plays.
        let fleet = try await vplay(["fleet", "--vast", tag, "--sessions", "3", "--sink", "--report", clip])
        #expect(fleet.status == 2 && fleet.stderr.contains("--report \(clip): that is the media file this ad plays"), "\(fleet.stderr)")
        #expect(!fleet.stdout.contains("sessions"), "no fleet report: \(fleet.stdout)")
        // The reward verifier keys were written as the command started, over the media before its clash was found:
        // they are written once the media is known and admitted, by `run` and `fleet` alike.
        let callback = ["--reward-callback", "http://127.0.0.1:1/reward", "--reward-keys", clip]
        let keys = try await vplay(["--vast", tag, "--dry-run", "--json"] + callback)
        #expect(keys.status == 2 && keys.stderr.contains("--reward-keys \(clip): that is the media file this ad plays"), "\(keys.stderr)")
        let fleetKeys = try await vplay(["fleet", "--vast", tag, "--sessions", "2", "--dry-run"] + callback)
        #expect(fleetKeys.status == 2 && fleetKeys.stderr.contains("--reward-keys \(clip): that is the media file this ad plays"), "\(fleetKeys.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: tag)) == tagBytes)
        #expect(try Data(contentsOf: URL(fileURLWithPath: clip)) == clipBytes)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "no temporary file is left: \(leftovers)")
    }

    /// A regular file is replaced whole: a symbolic link to it stays a link, and its mode is kept.
    /// Only a process shows the file it writes through a link: the link kept, the target's mode 0640 kept.
    @Test func aRegularFile_isReplacedWhole_keepingItsModeAndALinkToIt() async throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("report.json", "old")
        #expect(chmod(target, 0o640) == 0)
        let link = folder.url.appendingPathComponent("link.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "report.json")
        let run = try await vplay(Self.demo + ["--report", link])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Self.node(link).type == S_IFLNK)
        #expect(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: target))) is [String: Any])
        var status = stat()
        #expect(stat(target, &status) == 0 && status.st_mode & 0o777 == 0o640)
    }
}
