import AdSession
import ArgumentParser
import Foundation
import PlayerEngine
import Primitives

/// `--network` and its thresholds: the media downloads as the profile says, on the session's clock, and playback
/// starts, stalls and restarts as a player's buffer does. Taken by `run` and `inspect`.
struct NetworkOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Simulate the media download: wifi, 4g, fast3g (1.6 Mbps, 150 ms), slow3g, offline, or kbps=N,rtt=MS.", valueName: "profile"),
            transform: Self.profile)
    var network: NetworkProfile?

    @Option(help: ArgumentHelp("Simulate the media download by a rate trace: a JSON file [{\"at\": 0, \"kbps\": 2000}, {\"at\": 5, \"kbps\": 0}, ...] (seconds since the media request).", valueName: "file"),
            completion: .file(), transform: Self.trace)
    var networkTrace: InputFile<NetworkProfile>?

    @Option(help: .withDefault("Media buffered before the first frame shows (Media3's default).", seconds: MediaDelivery.defaultStartupBuffer),
            transform: OptionValue.seconds(else: "--startup-buffer must be a number of seconds"))
    var startupBuffer: Duration?

    @Option(help: .withDefault("Media buffered before playback restarts after a stall (Media3's default).", seconds: MediaDelivery.defaultRebuffer),
            transform: OptionValue.seconds(else: "--rebuffer must be a number of seconds"))
    var rebuffer: Duration?

    @Option(help: .withDefault("The media must be ready to play this long after its request, else error 402 and the next file (IMA's loadVideoTimeout).", seconds: .seconds(8)),
            transform: OptionValue.seconds(positive: true, else: "--media-timeout must be a positive number of seconds"))
    var mediaTimeout: Duration?

    @Option(help: ArgumentHelp("Fail the ad with 402 when one stall lasts longer than this (default: no limit; IMA documents none).", valueName: "seconds"),
            transform: OptionValue.seconds(positive: true, else: "--stall-timeout must be a positive number of seconds"))
    var stallTimeout: Duration?

    /// The profile given, by name or trace.
    var profile: NetworkProfile? { network ?? networkTrace?.value }

    /// The files these options read.
    var inputs: [(option: String, path: String?)] { [("--network-trace", networkTrace?.path)] }

    func validate(bandwidth: TagOptions.Bandwidth?) throws {
        if network != nil && networkTrace != nil { throw ValidationError("--network and --network-trace exclude each other") }
        if profile == nil {
            let thresholds = [("--startup-buffer", startupBuffer != nil), ("--rebuffer", rebuffer != nil),
                              ("--media-timeout", mediaTimeout != nil), ("--stall-timeout", stallTimeout != nil)]
            if let given = thresholds.first(where: \.1) { throw ValidationError("\(given.0) applies to a simulated network: give --network or --network-trace") }
            if bandwidth == .auto { throw ValidationError("--bandwidth auto chooses by the network's rate: give --network or --network-trace") }
        }
    }

    func apply(to configuration: inout SessionConfiguration) {
        guard let profile else { return }
        var network = SessionConfiguration.NetworkConditions(profile: profile)
        if let startupBuffer { network.startupBuffer = startupBuffer }
        if let rebuffer { network.rebuffer = rebuffer }
        if let mediaTimeout { network.mediaTimeout = mediaTimeout }
        network.stallTimeout = stallTimeout
        configuration.network = network
    }

    @Sendable static func profile(_ text: String) throws -> NetworkProfile {
        do { return try NetworkProfile(parsing: text) } catch { throw ValidationError(error.description) }
    }

    /// Reads and parses the trace now, once: a file that cannot be read or parsed is a usage error.
    @Sendable static func trace(_ path: String) throws -> InputFile<NetworkProfile> {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--network-trace \(path): cannot read it") }
        let name = "trace " + (path as NSString).lastPathComponent
        do { return InputFile(path: path, value: try NetworkProfile(trace: data, name: name)) } catch { throw ValidationError(error.description) }
    }
}
