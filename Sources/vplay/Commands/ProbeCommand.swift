import Primitives
import AdSession
import ArgumentParser
import Foundation
import PlayerEngine

/// `vplay probe FILE|URL [--decode|--demux] [--json]`: what FFmpeg sees in a media file, and how fast it decodes.
struct ProbeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print a media file's streams; with --decode, decode every frame and report counts and speed.",
        discussion: ExitCode.probeDocumentation
    )

    @Argument(help: "A media file path or an http(s) URL.", completion: .file())
    var location: String

    @Flag(help: "Decode every audio and video frame (frame counts, first/last timestamps, decode speed).")
    var decode = false

    @Flag(help: "Demux only: read every packet without decoding (packet counts, speed).")
    var demux = false

    @Option(help: .withDefault("Decoder threads per stream; 0 = one per core, as ffmpeg's default.", 0, valueName: "threads"), transform: OptionValue.threads)
    var threads = 0

    @Flag(help: "Print one JSON object instead of text.")
    var json = false

    @OptionGroup var quietOption: QuietOption

    func validate() throws {
        if decode && demux { throw ValidationError("--decode and --demux exclude each other") }
    }

    func run() async throws {
        quietOption.apply()
        let wall = LiveTools.monotonicClock()
        let started = wall.now
        do {
            // A demux pass opens no decoder; a plain probe opens them, to report a decoder that will not open.
            var options = MediaOpenOptions(decoderThreads: threads, openDecoders: !demux, measureTimeline: !demux)
            // HLS playlists and DASH manifests too (their highest bandwidth variant or representation), every nested
            // URL checked as in a session.
            options.streaming = StreamingOptions()
            options.passStopwatch = { wall.stopwatch() }
            let source = try LiveTools.mediaSource(location, options: options)
            var pass: MediaPass? = nil
            if decode {
                while try source.nextFrame() != nil {}
                pass = MediaPass(mode: "decode", statistics: source.statistics, wallTime: started.duration(to: wall.now), mediaDuration: source.info.duration)
            } else if demux {
                while try source.nextPacket() != nil {}
                pass = MediaPass(mode: "demux", statistics: source.statistics, wallTime: started.duration(to: wall.now), mediaDuration: source.info.duration)
            }
            if json { StandardStreams.print(ProbeRendering.json(source.info, pass: pass).text) } else { StandardStreams.say(ProbeRendering.text(source.info, pass: pass)) }
        } catch {
            if json {
                StandardStreams.print(JSON.object([("kind", .string("error")), ("code", .int(error.vastCode.rawValue)), ("error", .string(error.kind)), ("message", .string(error.description))]).text)
            }
            StandardStreams.fail("VAST \(error.vastCode): \(error.description)")
            try CommandOutputs.exit(ExitCode.mediaError.rawValue)
            return
        }
        try CommandOutputs.exit(0)
    }
}

