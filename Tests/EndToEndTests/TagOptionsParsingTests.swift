import AdSession
import Foundation
import Testing
import VAST
@testable import vplay

/// `--vast`, `--map`, `--max-wrappers`, `--tag-timeouts`, `--bandwidth`, `--screen`, `--media-file`,
/// `--adcash-state`: parsed once, as the command line is, by `run`, `inspect` and `fleet` alike.
@Suite struct TagOptionsParsingTests {
    static let commands: [[String]] = [[], ["run"], ["inspect"], ["fleet"]]

    func tagOptions(_ command: [String], _ arguments: [String]) throws -> TagOptions {
        let parsed = try VPlay.parseAsRoot(command + ["--vast", "ad.xml"] + arguments)
        switch parsed {
        case let run as RunCommand: return run.tag
        case let inspect as InspectCommand: return inspect.tag
        case let fleet as FleetCommand: return fleet.tag
        default: throw CLIError("\(command) parsed to \(type(of: parsed))")
        }
    }

    @Test(arguments: commands)
    func everyTagOption_isParsedIntoTheValueTheConfigurationTakes(_ command: [String]) throws {
        let tag = try tagOptions(command, ["--map", "https://ads.example/=media", "--map", "http://cdn.example/v=/srv/v", "--max-wrappers", "2",
                                           "--tag-timeouts", "1.5,0.25", "--bandwidth", "900", "--screen", "1280X720", "--media-file", "2",
                                           "--adcash-state", "state.json"])
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        #expect(tag.map == [URLMapping(prefix: "https://ads.example/", directory: cwd.appendingPathComponent("media", isDirectory: true)),
                            URLMapping(prefix: "http://cdn.example/v", directory: URL(fileURLWithPath: "/srv/v", isDirectory: true))])
        #expect(tag.maxWrappers == 2)
        #expect(tag.tagTimeouts == TagTimeouts(first: .milliseconds(1500), each: .milliseconds(250)))
        #expect(tag.bandwidth == .kbps(900))
        #expect(tag.screen == ScreenSize(width: 1280, height: 720))
        var configuration = SessionConfiguration(tag: "other.xml")
        tag.apply(to: &configuration)
        #expect(configuration.tag == "ad.xml")
        #expect(configuration.mappings == tag.map)
        #expect(configuration.resolver.maxWrapperDepth == 2)
        #expect(configuration.resolver.firstRequestTimeout == .milliseconds(1500) && configuration.resolver.wrapperTimeout == .milliseconds(250))
        #expect(configuration.mediaCriteria.targetBitrateKbps == 900)
        #expect(configuration.mediaCriteria.screenWidth == 1280 && configuration.mediaCriteria.screenHeight == 720)
        #expect(configuration.mediaCriteria.forcedFile == "2")
        #expect(configuration.adcashStatePath == "state.json")
    }

    @Test(arguments: commands)
    func tagOptionsNotGiven_takeTheirDefaults(_ command: [String]) throws {
        let tag = try tagOptions(command, [])
        #expect(tag.map.isEmpty && tag.maxWrappers == 5 && tag.bandwidth == nil && tag.screen == nil)
        #expect(tag.tagTimeouts == TagTimeouts(first: .seconds(8), each: .seconds(4)), "IMA iOS's 8 s and 4 s")
        var configuration = SessionConfiguration(tag: "ad.xml")
        tag.apply(to: &configuration)
        let defaults = SessionConfiguration(tag: "ad.xml")
        #expect(configuration.resolver.firstRequestTimeout == defaults.resolver.firstRequestTimeout)
        #expect(configuration.resolver.wrapperTimeout == defaults.resolver.wrapperTimeout)
        #expect(configuration.resolver.maxWrapperDepth == defaults.resolver.maxWrapperDepth)
    }

    @Test(arguments: commands, [
        (["--map", "nothing"], "--map nothing: expected PREFIX=DIR with an http(s) PREFIX"),
        (["--map", "ftp://x.example/=/tmp"], "--map ftp://x.example/=/tmp: expected PREFIX=DIR with an http(s) PREFIX"),
        (["--map", "https://x.example/="], "--map https://x.example/=: expected PREFIX=DIR with an http(s) PREFIX"),
        (["--max-wrappers", "-1"], "--max-wrappers must be 0 or more"),
        (["--max-wrappers", "many"], "--max-wrappers must be 0 or more"),
        (["--tag-timeouts", "8"], "--tag-timeouts must be two positive numbers of seconds, like 8,4"),
        (["--tag-timeouts", "0,4"], "--tag-timeouts must be two positive numbers of seconds, like 8,4"),
        (["--tag-timeouts", "8,1e300"], "--tag-timeouts must be two positive numbers of seconds, like 8,4"),
        (["--tag-timeouts", "8,4,2"], "--tag-timeouts must be two positive numbers of seconds, like 8,4"),
        (["--bandwidth", "0"], "--bandwidth must be a positive number of kbps"),
        (["--bandwidth", "-5"], "--bandwidth must be a positive number of kbps"),
        (["--bandwidth", "99999999999999999999"], "--bandwidth must be a positive number of kbps"),
        (["--screen", "big"], "--screen must look like 1280x720"),
        (["--screen", "0x720"], "--screen must look like 1280x720"),
        (["--screen", "1280x720x3"], "--screen must look like 1280x720"),
    ])
    func badTagOption_isAUsageErrorNamingTheOption(_ command: [String], _ bad: ([String], String)) {
        let (arguments, message) = bad
        let error = CLI.usageError(command + ["--vast", "ad.xml"] + arguments)
        #expect(error?.contains(message) == true, "\(command + arguments): \(error ?? "no usage error")")
    }
}
