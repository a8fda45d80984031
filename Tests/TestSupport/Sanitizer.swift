import Primitives
import Foundation

/// Whether this test process (and so the `vplay` it runs, built the same way) runs under AddressSanitizer or
/// ThreadSanitizer (`scripts/sanitize.sh`). Their shadow memory and quarantine put even a well-behaved sanitized run
/// at several hundred MiB, so absolute memory ceilings hold only without them; comparisons with a well-behaved twin
/// run hold either way.
public enum Sanitizer {
    public static let active: Bool = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil

    /// A budget for work that must be fast (measured as the thread's CPU time, `ThreadCPUTime`): `seconds` normally,
    /// five times that under a sanitizer, which slows instrumented code several-fold. Such budgets only tell "refused up front" from "ran into the slow path"
    /// (which takes minutes), so the wider one still does.
    public static func budget(seconds: Int64) -> Duration { .seconds(active ? seconds * 5 : seconds) }
}
