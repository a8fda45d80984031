#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// peak-rss REPORT COMMAND [ARGUMENT…]
//
// Runs COMMAND, waits for it, writes its peak resident set size in bytes (`ru_maxrss` from `wait4`) to the file
// REPORT, and exits as it did: the same exit code, or the same signal.
//
// Why a process of its own: on Linux, `exec` keeps in a process's `ru_maxrss` the peak RSS of the memory it replaces,
// and a child made by `posix_spawn` (or `fork`) starts with its parent's. So a `vplay` spawned straight from the test
// process reports the test process's peak whenever that is the larger, which it is while other tests run in parallel
// (seen: every run at 170 MiB, whatever it did). Spawned from this small process, it reports its own.
//
// The end-to-end tests run `vplay` through it (`SpawnedVPlay`) and signal the process group: SIGINT, SIGTERM, SIGHUP
// and SIGQUIT are ignored here and reach COMMAND directly, with their default actions.

/// Writes `text` to standard error (descriptor 2: the C `stderr` stream is shared mutable state to Swift 6).
func complain(_ text: String) {
    _ = text.withCString { write(2, $0, strlen($0)) }
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    complain("usage: peak-rss REPORT COMMAND [ARGUMENT…]\n")
    exit(2)
}
let forwarded = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]
for number in forwarded { signal(number, SIG_IGN) }

var attributes = posix_spawnattr_t()
posix_spawnattr_init(&attributes)
var defaults = sigset_t()
sigemptyset(&defaults)
for number in forwarded { sigaddset(&defaults, number) }
posix_spawnattr_setsigdefault(&attributes, &defaults)
posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF))
let argv = arguments.dropFirst(2).map { strdup($0) } + [nil]
var child: pid_t = 0
let spawned = posix_spawn(&child, arguments[2], nil, &attributes, argv, environ)
guard spawned == 0 else {
    complain("peak-rss: cannot run \(arguments[2]): \(String(cString: strerror(spawned)))\n")
    exit(127)
}

var status: Int32 = 0
var usage = rusage()
while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
if let report = fopen(arguments[1], "w") {
    fputs("\(usage.ru_maxrss * 1024)\n", report)
    fclose(report)
}
let signalled = status & 0x7f
if signalled != 0 {
    signal(signalled, SIG_DFL)
    raise(signalled)
}
exit((status >> 8) & 0xff)
