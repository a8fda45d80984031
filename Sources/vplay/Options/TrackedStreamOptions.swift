import AdSession
import ArgumentParser

/// How a stream with a client-side tracking document runs (`--tracking-doc DOC`; its length and the viewer's script
/// from `--content-duration` and `--content-script`; docs/guides/ssai.md).
struct TrackedStreamOptions: ParsableArguments {
    @Option(help: ArgumentHelp("--tracking-doc: client fires every beacon; hybrid leaves impression, start, quartiles, complete, breakStart and breakEnd to the server (MediaTailor's hybrid mode).", valueName: "client|hybrid"))
    var reporting: TrackedStreamPlayback.Reporting = .client

    @Option(help: ArgumentHelp("--tracking-doc: ask for the document again every N seconds of stream (a live stream's player polls; MediaTailor's nextToken is sent back); default: once.", valueName: "seconds"),
            transform: OptionValue.seconds(positive: true, else: "--poll-interval must be a number of seconds above 0"))
    var pollInterval: Duration?

    func playback(_ content: VMAPOptions) -> TrackedStreamPlayback {
        TrackedStreamPlayback(streamDuration: content.contentDuration, reporting: reporting, pollInterval: pollInterval,
                              contentScript: content.contentScript ?? ContentScript())
    }
}

extension TrackedStreamPlayback.Reporting: ExpressibleByArgument {}
