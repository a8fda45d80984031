import Primitives
import Foundation

/// Appends each beacon record to a JSON Lines file as it happens, each line written as it comes, so the log survives
/// an error exit or an interruption. A regular file is written beside its path and put in place by `close()`
/// (`OutputFile`): an existing file there stays whole until then, and is never emptied before the run. Keys are
/// sorted, so two runs with the same `--seed` and `--now` against the same answers write the same bytes (apart from
/// wall times and latencies).
public final class BeaconLogWriter: @unchecked Sendable {
    private let file: OutputFile
    /// Configured once, then only used to encode.
    private let encoder: JSONEncoder
    /// The `session` every line carries.
    private let session: String

    /// Writes to `file` (opened by the caller); every line names `session`.
    public init(file: OutputFile, session: String) {
        self.file = file
        self.session = session
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        self.encoder = encoder
    }

    /// Writes the log at `path`.
    public convenience init(path: String, session: String) throws(OutputError) {
        self.init(file: try OutputFile(path, option: ""), session: session)
    }

    /// Writes `record` as one line. A failed write is kept: `close()` throws it.
    public func append(_ record: BeaconRecord) {
        guard var line = try? encoder.encode(BeaconRecord.Line(record, session: session)) else { return }
        line.append(0x0A)
        try? file.write(line)
    }

    /// Puts the log in place; throws the first failure of any write.
    public func close() throws(OutputError) {
        try file.commit()
    }

    /// Gives the log up: whatever was at its path stays.
    public func discard() {
        file.discard()
    }
}
