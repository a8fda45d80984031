import ArgumentParser

/// vplay's documented exit codes (docs/reference/exit-codes.md); the same table is printed by `--help`.
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
    /// A `fleet --threshold` failed (k6's code for a failed threshold).
    static let thresholdFailed = ExitCode(99)

    /// `run`'s codes (and vplay's without a subcommand).
    static let documentation = """
        Exit codes: 0 played and everything held; 1 an expectation failed; 2 usage error (or an output file could \
        not be written); \
        3 ad error (no ad, XML, wrapper; a VMAP document or tracking document that cannot be played, or a VMAP break that played no ad); \
        4 media error (not found, unsupported, truncated, corrupt); 5 beacon delivery failures (with --fail-on-beacon-errors); 130/143 interrupted.
        """

    /// `inspect`'s codes: only those it can return.
    static let inspectDocumentation = """
        Exit codes: 0 the tag would play (with --strict: and draws no warning); 1 with --strict, the tag draws a \
        warning; 2 usage error (or stdout could not be written); 3 ad error (no ad, XML, wrapper; a tracking \
        document that cannot be read); 4 media error \
        (not found, unsupported, truncated, corrupt).
        """

    /// `lint`'s codes (vastlint's: 0 clean, 1 errors, 2 usage).
    static let lintDocumentation = """
        Exit codes: 0 no finding is an error (under the config file's and --rule's severities); 1 a finding is an \
        error; 2 usage error (a bad --rule or config file; an output that could not be written); 130, 143 interrupted \
        (the tags linted to their end are written).
        """

    /// `probe`'s codes.
    static let probeDocumentation = """
        Exit codes: 0 the media opened (and, with --decode or --demux, was read to its end); 2 usage error (or \
        stdout could not be written); 4 media error (not found, unsupported, truncated, corrupt).
        """

    /// `merge`'s codes.
    static let mergeDocumentation = """
        Exit codes: 0 every shard is there and the merged counts agree (sent as expected, received as sent); 1 a \
        count differs, or a shard is missing (without --allow-partial); 2 usage error (a report that cannot be \
        read, is not a fleet report or is not of the same fleet; an output that cannot be written).
        """
}
