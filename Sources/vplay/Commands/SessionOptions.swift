import AdSession
import ArgumentParser
import Foundation
import VAST

/// The options that say which ad to load and how: shared by `run` and `inspect`.
struct TagOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The VAST tag: a file path or an http(s) URL.", valueName: "path|url"))
    var vast: String

    @Option(help: ArgumentHelp("Read URLs under PREFIX (tags and media) from the local DIR, for offline replay; repeatable.", valueName: "PREFIX=DIR"))
    var map: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Most wrappers followed before error 302 (VAST 4.x: players need accept only 5).", valueName: "N"))
    var maxWrappers = 5

    @Option(help: ArgumentHelp("Seconds for the first tag request, then for each wrapper (IMA iOS: 8 and 4).", valueName: "first,each"))
    var tagTimeouts = "8,4"

    @Option(parsing: .unconditional, help: ArgumentHelp("Target bandwidth in kbps for choosing the media file (highest bitrate not above it).", valueName: "kbps"))
    var bandwidth: Int?

    @Option(help: ArgumentHelp("Screen size for choosing the media file (closest area not above it).", valueName: "WxH"))
    var screen: String?

    @Option(help: ArgumentHelp("Force a media file by its id attribute or 1-based position.", valueName: "id"))
    var mediaFile: String?

    @Option(help: ArgumentHelp("Choose low/mid/high quality by the Adcash rule from the last download saved in FILE (none yet: low); time this download and save it.", valueName: "file"))
    var adcashState: String?

    func validate() throws {
        if let screen, Self.parseScreen(screen) == nil { throw ValidationError("--screen must look like 1280x720") }
        for entry in map where URLMapping(argument: entry, relativeTo: Self.cwd) == nil {
            throw ValidationError("--map \(entry): expected PREFIX=DIR with an http(s) PREFIX")
        }
        if maxWrappers < 0 { throw ValidationError("--max-wrappers must be 0 or more") }
        if let bandwidth, bandwidth <= 0 { throw ValidationError("--bandwidth must be a positive number of kbps") }
        if Self.parseTimeouts(tagTimeouts) == nil { throw ValidationError("--tag-timeouts must be two positive numbers of seconds, like 8,4") }
    }

    /// Applies these options to a session configuration.
    func apply(to configuration: inout SessionConfiguration) {
        configuration.tag = vast
        configuration.mappings = map.compactMap { URLMapping(argument: $0, relativeTo: Self.cwd) }
        configuration.resolver.maxWrapperDepth = maxWrappers
        if let (first, each) = Self.parseTimeouts(tagTimeouts) {
            configuration.resolver.firstRequestTimeout = first
            configuration.resolver.wrapperTimeout = each
        }
        configuration.mediaCriteria.targetBitrateKbps = bandwidth
        if let size = screen.flatMap(Self.parseScreen) {
            configuration.mediaCriteria.screenWidth = size.0
            configuration.mediaCriteria.screenHeight = size.1
        }
        configuration.mediaCriteria.forcedFile = mediaFile
        configuration.adcashStatePath = adcashState
    }

    static var cwd: URL { URL(fileURLWithPath: FileManager.default.currentDirectoryPath) }

    static func parseScreen(_ text: String) -> (Int, Int)? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else { return nil }
        return (width, height)
    }

    static func parseTimeouts(_ text: String) -> (Duration, Duration)? {
        let parts = text.split(separator: ",").compactMap { Double($0) }
        guard parts.count == 2, parts.allSatisfy({ OptionRanges.isSeconds($0, positive: true) }) else { return nil }
        return (OptionRanges.duration(seconds: parts[0]), OptionRanges.duration(seconds: parts[1]))
    }
}
