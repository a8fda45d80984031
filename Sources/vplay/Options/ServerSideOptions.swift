import AdSession
import ArgumentParser

/// Server-side mode (`--ssai server`): vplay is the stitcher (docs/guides/ssai.md); `fleet --ssai compare` plays the
/// fleet both ways.
struct ServerSideOptions: ParsableArguments {
    @Option(help: ArgumentHelp("server: vplay is the stitcher; the ad's timed beacons fire when the player requests the segment holding each point, with the device's X-Device-IP and X-Device-User-Agent and [SERVERSIDE]=1 (default: the player fires them). fleet also takes compare: the fleet played client-side, then server-side, and compared event by event.", valueName: "server|compare"))
    var ssai: Mode?

    /// `--ssai`'s values (client-side is running without it).
    enum Mode: String, ExpressibleByArgument, CaseIterable { case server, compare }

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

    @Option(help: ArgumentHelp("--ssai server: an optional device field, sent as X-Device-NAME: VALUE on every beacon (VAST 4.3: Referer, Accept-Language and Requested-With should be sent); repeatable.", valueName: "NAME=VALUE"),
            transform: Self.deviceField)
    var deviceHeader: [ServerSideInsertion.DeviceField] = []

    /// `NAME=VALUE`, NAME a header token without its `X-Device-` prefix, VALUE visible text.
    @Sendable static func deviceField(_ text: String) throws -> ServerSideInsertion.DeviceField {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        let token = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy(token.contains), !parts[0].lowercased().hasPrefix("x-device-"),
              parts[1].unicodeScalars.allSatisfy({ $0 == "\t" || (0x20...0x7E).contains($0.value) }) else {
            throw ValidationError("--device-header \(text): expected NAME=VALUE, NAME a header name without X-Device- (Accept-Language=en-US), VALUE plain text")
        }
        return ServerSideInsertion.DeviceField(name: parts[0], value: parts[1])
    }

    /// Server-side mode's settings, when `--ssai` is given.
    var insertion: ServerSideInsertion? {
        ssai.map { _ in ServerSideInsertion(segment: segment, prefetch: prefetch, deviceIP: deviceIP, forwardedFor: forwardedFor, deviceFields: deviceHeader) }
    }
}
