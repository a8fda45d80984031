import Primitives
import Foundation
import TestSupport

/// The built `vplay` as a child process the test controls: started with `posix_spawn` (standard output and error to
/// descriptors the test chooses, every other descriptor of the test process closed) under the `peak-rss` meter, in a
/// process group of its own that signals go to, and reaped with `wait4`. The meter gives vplay's own peak resident
/// memory: the `ru_maxrss` of a child spawned straight from the test process starts at the test process's peak
/// (`Tests/PeakRSS/main.swift`). `vplay(_:)` runs through Foundation's `Process`, which gives neither the memory nor a
/// pipe whose write end the test keeps.
final class SpawnedVPlay: @unchecked Sendable {
    /// How a run ended.
    struct Exit: Sendable {
        /// The exit code, or 128 + the signal that ended the process (as a shell reports it).
        var status: Int32
        /// vplay's peak resident set size in bytes (its `ru_maxrss`, as the meter saw it; 0 if the meter was killed).
        var peakRSS: Int
        /// From the spawn to the exit.
        var wall: Duration
        /// When the exit was seen, by the thread waiting for it (not when the awaiting task ran again).
        var ended: ContinuousClock.Instant
        /// The watchdog killed it: the run hung.
        var killed: Bool
    }

    /// The meter's pid, which is also the process group of the meter and vplay.
    let pid: pid_t
    private let started = ContinuousClock.now
    /// Where the meter writes vplay's peak RSS.
    private let report = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-peak-rss-\(UUID().uuidString)")
    private let lock = NSLock()
    /// Set once the child has exited (before it is reaped, so its pid cannot have been reused by then).
    private var exited = false

    /// Starts `vplay arguments…` with stdin from /dev/null and stdout, stderr on the given descriptors (which the caller
    /// still owns). SIGINT, SIGTERM and SIGPIPE start with their default actions and nothing blocked, as from a shell.
    init(_ arguments: [String], stdout: Int32, stderr: Int32) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        // The test process holds servers' sockets and pipes: a child holding a copy would keep a connection open
        // after the server closed it. glibc ignores a close action on a descriptor closed meanwhile.
        let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        for fd in open.compactMap({ Int32($0) }) where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        // A group of its own (pgid = the meter's pid), so a signal reaches vplay and a watchdog's SIGKILL both.
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        let argv = ([Repo.peakRSSMeter, report.path, Repo.vplayBinary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, Repo.peakRSSMeter, &actions, &attributes, argv, environ)
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        pid = child
    }

    /// Sends `number` to vplay (and the meter, which ignores all but SIGKILL), unless they have already exited.
    func signal(_ number: Int32) {
        lock.withLock { if !exited { _ = kill(-pid, number) } }
    }

    /// Whether the child has exited (it may not have been reaped yet).
    var hasExited: Bool { lock.withLock { exited } }

    /// Waits for the exit on a thread of its own (not the test runner's cooperative pool). After `limit` the child is
    /// killed, so a hang fails the test (`killed`) instead of stalling the suite.
    func exit(killAfter limit: Duration) async -> Exit {
        let watchdog = Task.detached { [self] in
            try await Task.sleep(for: limit)
            signal(SIGKILL)
        }
        defer { watchdog.cancel() }
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread { [self] in
                // Wait without reaping, mark it exited, then reap: the pid cannot be reused while `signal` may use it.
                var info = siginfo_t()
                while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) != 0 && errno == EINTR {}
                lock.withLock { exited = true }
                var status: Int32 = 0
                var usage = rusage()
                while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
                let signalled = status & 0x7f
                let peak = (try? String(contentsOf: report, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                try? FileManager.default.removeItem(at: report)
                let ended = ContinuousClock.now
                continuation.resume(returning: Exit(
                    status: signalled == 0 ? (status >> 8) & 0xff : 128 + signalled,
                    peakRSS: peak ?? 0, wall: started.duration(to: ended), ended: ended, killed: signalled == SIGKILL))
            }
        }
    }
}

/// The built binary started with its stdout and stderr going to `stdout` and `stderr` in a folder, and the wait for
/// its exit (killed after `limit`) already under way.
struct RunningVPlay {
    let child: SpawnedVPlay
    let exit: Task<SpawnedVPlay.Exit, Never>
    let stdout: URL
    let stderr: URL
    /// Held so the files outlive the run (the folder is removed when its last holder goes).
    let folder: TemporaryFolder

    init(_ arguments: [String], in folder: TemporaryFolder, killAfter limit: Duration) throws {
        self.folder = folder
        stdout = folder.url.appendingPathComponent("stdout")
        stderr = folder.url.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let out = try FileHandle(forWritingTo: stdout), err = try FileHandle(forWritingTo: stderr)
        defer { try? out.close(); try? err.close() }
        let child = try SpawnedVPlay(arguments, stdout: out.fileDescriptor, stderr: err.fileDescriptor)
        self.child = child
        exit = Task { await child.exit(killAfter: limit) }
    }

    /// Polls stdout (never a fixed sleep) until it contains `text`: the session is under way. Throws if vplay exits
    /// first, with what it wrote, instead of waiting for the test's time limit.
    func waitForOutput(containing text: String) async throws {
        while try !String(contentsOf: stdout, encoding: .utf8).contains(text) {
            if child.hasExited, try !String(contentsOf: stdout, encoding: .utf8).contains(text) {
                let output = (try? String(contentsOf: stdout, encoding: .utf8)) ?? ""
                throw CocoaError(.executableLoad, userInfo: [
                    NSLocalizedDescriptionKey: "vplay exited before writing \(text); stderr: \(errors); stdout: \(output.suffix(2000))",
                ])
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    var errors: String { (try? String(contentsOf: stderr, encoding: .utf8)) ?? "" }

    /// Sends `number` and waits for the exit; how it ended and how long after the signal, to when the waiting thread
    /// saw the exit (not when this task ran again: a busy test process is no slow vplay).
    func signalAndWait(_ number: Int32) async -> (exit: SpawnedVPlay.Exit, afterSignal: Duration) {
        let signalled = ContinuousClock.now
        child.signal(number)
        let ended = await exit.value
        return (ended, signalled.duration(to: ended.ended))
    }
}

/// Runs the built binary to its end, like `vplay(_:)`, and measures it: peak RSS and wall time.
func measuredVPlay(_ arguments: [String], killAfter limit: Duration = .seconds(150)) async throws -> (Invocation, SpawnedVPlay.Exit) {
    let running = try RunningVPlay(arguments, in: try TemporaryFolder(), killAfter: limit)
    let exit = await running.exit.value
    let run = Invocation(status: exit.status, stdout: try String(contentsOf: running.stdout, encoding: .utf8), stderr: running.errors)
    return (run, exit)
}
