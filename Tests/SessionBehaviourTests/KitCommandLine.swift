import AdSession
import ArgumentParser
import Primitives
import TestSupport
import TrackingBeacons
@testable import vplay

/// Behaviour tests say what they play as a user types it: the command line is parsed as `vplay` parses it (every
/// option's validation included) into the configuration `vplay` would play, and the session runs in process on the
/// kit's doubles.
extension SessionKit {
    /// The configuration `vplay arguments…` plays, at the kit's instant unless `--now` is given. Paths under `media/`
    /// are the repository's.
    func configuration(cli arguments: [String]) throws -> SessionConfiguration {
        let arguments = arguments.map { $0.hasPrefix("media/") ? Repo.root.appendingPathComponent($0).path : $0 }
        guard let command = try VPlay.parseAsRoot(arguments) as? RunCommand else {
            throw KitCommandLineError(description: "\(arguments) is not a run command line")
        }
        var configuration = command.sessionConfiguration()
        if configuration.now == nil { configuration.now = wallStart }
        return configuration
    }

    /// Plays `vplay arguments…` in process.
    func run(cli arguments: [String]) async throws -> SessionRun {
        try await run(configuration(cli: arguments))
    }
}

extension SessionKit {
    /// `vplay arguments…` parsed as `vplay` parses it, as the subcommand `Command` (paths under `media/` are the
    /// repository's).
    func command<Command: ParsableCommand>(cli arguments: [String], as _: Command.Type = Command.self) throws -> Command {
        let arguments = arguments.map { $0.hasPrefix("media/") ? Repo.root.appendingPathComponent($0).path : $0 }
        guard let command = try VPlay.parseAsRoot(arguments) as? Command else {
            throw KitCommandLineError(description: "\(arguments) is not a \(Command.self) line")
        }
        return command
    }

    /// What `vplay inspect arguments…` finds, in process: the configuration built as `InspectCommand.run()` builds
    /// it (tag, network and pod options), the media opened unless `--no-media`.
    func inspect(cli arguments: [String]) async throws -> AdInspection {
        let command = try command(cli: arguments, as: InspectCommand.self)
        var configuration = SessionConfiguration(tag: command.tag.vast)
        command.network.apply(to: &configuration)
        command.tag.apply(to: &configuration)
        command.pods.apply(to: &configuration)
        return await inspect(configuration, openMedia: !command.noMedia)
    }

    /// `vplay fleet arguments…` in process, on the kit's doubles (`FleetCommand.fleetConfiguration()`): the report
    /// or the failure, and every URL sent.
    func fleet(cli arguments: [String]) async throws -> (Result<FleetReport, FleetFailure>, sent: [String]) {
        await fleet(try command(cli: arguments, as: FleetCommand.self).fleetConfiguration())
    }
}

/// `vplay arguments…` in process on the live environment (`SessionEnvironment.live`): real tag loading, FFmpeg,
/// HTTP and the address policy, with no double in between. For what the live parts decide — a URL that cannot be
/// requested, an address the policy refuses, a redirect — against real loopback servers; behaviour that does not
/// depend on them belongs on the kit.
///
/// A session in the test process shares two cooperative threads with hundreds of other tests, so on a busy machine it
/// can be starved for tens of seconds: the tag timeouts are 120 s unless a test gives its own, and the resolution's
/// whole budget 600 s (not 28), so that only what a test is about can fail it, never the machine's speed. (Media is opened on threads of its own, not the cooperative pool.)
enum LiveSession {
    static func patient(_ arguments: [String]) -> [String] {
        var arguments = arguments
        if !arguments.contains("--tag-timeouts") { arguments += ["--tag-timeouts", "120,120"] }
        return arguments
    }

    static func run(cli arguments: [String]) async throws -> SessionRun {
        var configuration = try SessionKit().configuration(cli: patient(arguments))
        configuration.resolver.resolutionTimeout = .seconds(600)
        let records = Locked<[SessionRecord]>([])
        let summary = await AdSessionRunner(configuration: configuration, environment: .live(configuration)).run { record in
            records.withLock { $0.append(record) }
        }
        let attempts = records.withLock { $0 }.compactMap { if case let .beacon(beacon) = $0, !beacon.dryRun { beacon.url } else { nil } }
        return SessionRun(summary: summary, records: records.withLock { $0 }, sent: attempts)
    }

    static func inspect(cli arguments: [String]) async throws -> AdInspection {
        let command = try SessionKit().command(cli: patient(arguments), as: InspectCommand.self)
        var configuration = SessionConfiguration(tag: command.tag.vast)
        command.network.apply(to: &configuration)
        command.tag.apply(to: &configuration)
        command.pods.apply(to: &configuration)
        configuration.resolver.resolutionTimeout = .seconds(600)
        return await AdInspector(configuration: configuration, environment: .live(configuration)).inspect(openMedia: !command.noMedia)
    }
}

struct KitCommandLineError: Error, CustomStringConvertible {
    var description: String
}

extension SessionRun {
    /// The planned beacons whose URL contains `fragment`, in order.
    func beacons(containing fragment: String) -> [PlannedBeacon] { planned.filter { $0.url.contains(fragment) } }
    /// Each pod ad's outcome, in order.
    var outcomes: [PodAdReport.Outcome] { ads.map(\.outcome) }
    /// What was resolved: each ad that played, with its chosen media and why.
    var resolved: [ResolvedInfo] { records.compactMap { if case let .resolved(info) = $0 { info } else { nil } } }
}
