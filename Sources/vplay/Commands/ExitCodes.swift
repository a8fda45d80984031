import ArgumentParser

/// vplay's documented exit codes (README "Exit codes"); the same table is printed by `--help`.
extension ExitCode {
    /// An expectation (`--expect`) failed.
    static let expectationFailed = ExitCode(1)
    /// A usage error: unknown flag, bad value (ArgumentParser's own code for validation errors), or an output file
    /// that could not be written.
    static let usage = ExitCode(2)
    /// The ad could not be had: no ad, XML error, wrapper error (VAST 1xx, 2xx, 3xx).
    static let adError = ExitCode(3)
    /// The media could not be played: not found, unsupported, truncated, corrupt (VAST 4xx).
    static let mediaError = ExitCode(4)
    /// Some beacons could not be delivered (only with `--fail-on-beacon-errors`).
    static let beaconFailures = ExitCode(5)

    static let documentation = """
        Exit codes: 0 played and everything held; 1 an expectation failed; 2 usage error (or an output file could \
        not be written); \
        3 ad error (no ad, XML, wrapper); 4 media error (not found, unsupported, truncated, corrupt); \
        5 beacon delivery failures (with --fail-on-beacon-errors); 130/143 interrupted.
        """
}
