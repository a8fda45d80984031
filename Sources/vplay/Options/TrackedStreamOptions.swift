import AdSession
import ArgumentParser

/// Server-side ad insertion: how a stream with a client-side tracking document runs (`--tracking-doc DOC`, its
/// length and the viewer's script from `--content-duration` and `--content-script`), and server-side mode
/// (`--ssai server`), where vplay is the stitcher (docs/guides/ssai.md).
struct SSAIOptions: ParsableArguments {
    @Option(help: ArgumentHelp("--tracking-doc: client fires every beacon; hybrid leaves impression, start, quartiles, complete, breakStart and breakEnd to the server (MediaTailor's hybrid mode).", valueName: "client|hybrid"))
    var reporting: TrackedStreamPlayback.Reporting = .client

    @Option(help: ArgumentHelp("--tracking-doc: ask for the document again every N seconds of stream (a live stream's player polls; MediaTailor's nextToken is sent back); default: once.", valueName: "seconds"),
            transform: OptionValue.seconds(positive: true, else: "--poll-interval must be a number of seconds above 0"))
    var pollInterval: Duration?

    @Option(help: ArgumentHelp("server: vplay is the stitcher; the ad's timed beacons fire when the player requests the segment holding each point, with the device's X-Device-IP and X-Device-User-Agent and [SERVERSIDE]=1 (default: the player fires them).", valueName: "server"))
    var ssai: Mode?

    /// `--ssai`'s one value (client-side is running without it).
    enum Mode: String, ExpressibleByArgument, CaseIterable { case server }

    @Option(help: .withDefault("--ssai server: the stream's segment duration, in seconds.", 2, valueName: "seconds"),
            transform: OptionValue.seconds(positive: true, else: "--segment must be a number of seconds above 0"))
    var segment: Duration = .seconds(2)

    @Option(help: .withDefault("--ssai server: segments the player requests ahead of its playhead (each counted by the stitcher when requested).", 0, valueName: "N"),
            transform: OptionValue.integer(in: 0...1000, else: "--prefetch must be from 0 to 1000"))
    var prefetch = 0

    @Option(help: ArgumentHelp("--ssai server: the device's address, sent as X-Device-IP and [DEVICEIP] (an RFC 5737 documentation address by default).", valueName: "ip"))
    var deviceIP = ServerSideInsertion.defaultDeviceIP

    @Flag(help: "--ssai server: send the device's address as X-Forwarded-For too (deprecated by VAST 4.x, still required by some vendors).")
    var forwardedFor = false

    func playback(_ content: VMAPOptions) -> TrackedStreamPlayback {
        TrackedStreamPlayback(streamDuration: content.contentDuration, reporting: reporting, pollInterval: pollInterval,
                              contentScript: content.contentScript ?? ContentScript())
    }

    /// Server-side mode's settings, when `--ssai server` is given.
    var serverSide: ServerSideInsertion? {
        ssai.map { _ in ServerSideInsertion(segment: segment, prefetch: prefetch, deviceIP: deviceIP, forwardedFor: forwardedFor) }
    }
}

extension TrackedStreamPlayback.Reporting: ExpressibleByArgument {}
