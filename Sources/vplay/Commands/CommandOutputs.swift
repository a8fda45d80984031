import ArgumentParser
import Primitives

/// How a command ends once it has written its outputs.
enum CommandOutputs {
    /// Tells each output that failed (stdout's failure too) on stderr, then ends with `code`, or with 2 (usage: an
    /// output could not be written) when one failed, unless a signal ended the run (`code` 128 + N stays, as a
    /// shell expects it). Throws the `ExitCode` to end with, nothing for 0.
    ///
    /// Every non-zero exit says why on stderr in one line, `--quiet` or not: `reason` (what failed, in words) when no
    /// error line was written yet, else the code's meaning. A signal's exit was already told (`interrupted`).
    static func exit(_ code: Int32, failures: [String] = [], signalled: Bool = false, reason: @autoclosure () -> String? = nil) throws {
        var failures = failures
        if let stdout = OutputFile.standardOutput.failure { failures.append(stdout.description) }
        for failure in failures { StandardStreams.fail(failure) }
        let final = failures.isEmpty || signalled ? code : ExitCode.usage.rawValue
        if final != 0, !signalled, !StandardStreams.hasFailed {
            StandardStreams.fail("\(reason() ?? meaning(final)) (exit \(final))")
        }
        if final != 0 { throw ExitCode(final) }
    }

    /// What an exit code means, when the command gave no reason of its own.
    static func meaning(_ code: Int32) -> String {
        switch code {
        case ExitCode.expectationFailed.rawValue: "a check failed"
        case ExitCode.usage.rawValue: "usage error"
        case ExitCode.adError.rawValue: "ad error"
        case ExitCode.mediaError.rawValue: "media error"
        case ExitCode.beaconFailures.rawValue: "beacons were not delivered"
        default: "failed"
        }
    }
}
