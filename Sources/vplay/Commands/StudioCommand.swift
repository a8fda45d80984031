import AdSession
import ArgumentParser
import Foundation
import Primitives
import Studio

/// `vplay studio`: the engine in a local web page. The page starts runs, fleets and audits; each is a `vplay` child
/// process of this binary writing into its own folder, watched live through Server-Sent Events.
struct StudioCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "studio",
        abstract: "Open vplay in a local web page: paste a tag, play it and watch, audit a capture, run a fleet.",
        discussion: """
            Prints the page's URL and serves it until Ctrl-C. It listens on 127.0.0.1 unless --host says otherwise, \
            answers only requests whose Host and Origin are its own, and takes runs only with the token its page \
            carries. Runs are kept in DATA/history.sqlite and DATA/runs/ (docs/guides/studio.md).
            """
    )

    @Option(help: ArgumentHelp("Address to listen on; anything but loopback exposes the studio to the network.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Port to listen on (default: a free one, printed).", valueName: "port"),
            transform: OptionValue.integer(in: 0...65_535, else: "--port must be from 0 to 65535"))
    var port = 0

    @Option(help: ArgumentHelp("Where runs and their history are kept (default: $XDG_DATA_HOME/vplay/studio, else ~/.local/share/vplay/studio).", valueName: "dir"),
            completion: .directory)
    var data: String?

    @Flag(help: "Keep nothing: runs go to a temporary folder removed at exit, and no history database is opened.")
    var noHistory = false

    @Option(help: ArgumentHelp("Relative URLs in pasted or dropped tags resolve against this folder.", valueName: "dir"), completion: .directory)
    var tagFolder = "."

    @Flag(help: "Every run, fleet and audit refuses tags, media and beacons on private, link-local or unique-local addresses.")
    var denyPrivateNetworks = false

    @Flag(help: "Every run, fleet and audit refuses loopback hosts too.")
    var denyLoopback = false

    func validate() throws {
        if noHistory && data != nil { throw ValidationError("--no-history keeps nothing; it does not go with --data") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: tagFolder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--tag-folder \(tagFolder): not a folder")
        }
    }

    /// The data folder: `--data`, `$XDG_DATA_HOME/vplay/studio`, or `~/.local/share/vplay/studio`.
    func dataFolder() -> String {
        if let data { return data }
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/vplay/studio" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share/vplay/studio"
    }

    func run() async throws {
        // Without history, a folder no one can guess (not one another user could have made first).
        let folder = noHistory ? FileManager.default.temporaryDirectory.appendingPathComponent("vplay-studio-\(UUID().uuidString)").path : dataFolder()
        let runsFolder = folder + "/runs"
        let server: StudioServer
        do {
            try FileManager.default.createDirectory(atPath: runsFolder, withIntermediateDirectories: true)
            let history = try StudioHistory(path: noHistory ? nil : folder + "/history.sqlite")
            let tagFolder = URL(fileURLWithPath: self.tagFolder).standardizedFileURL.path
            let policy = (denyPrivateNetworks ? ["--deny-private-networks"] : []) + (denyLoopback ? ["--deny-loopback"] : [])
            let runs = StudioRuns(executable: Self.executable(), runsFolder: runsFolder, history: history,
                                  arguments: StudioArguments(tagFolder: tagFolder, policyFlags: policy))
            server = StudioServer(runs: runs, now: LiveTools.wallTime)
        } catch {
            StandardStreams.fail("studio: \(error)")
            throw ExitCode(1)
        }
        let bound: Int
        do { bound = try await server.start(host: host, port: port) } catch {
            StandardStreams.fail("studio: cannot listen on \(host):\(port): \(error)")
            throw ExitCode(1)
        }
        let shown = host.contains(":") ? "[\(host)]" : host
        StandardStreams.print("http://\(shown):\(bound)/")
        StandardStreams.error("vplay studio: open http://\(shown):\(bound)/ (Ctrl-C to stop); runs in \(noHistory ? "a temporary folder, kept until exit" : folder)\n")
        if !["127.0.0.1", "::1", "localhost"].contains(host) {
            StandardStreams.warn("--host \(host): the studio is reachable from the network; anyone who can reach it and read its page can start runs")
        }
        let signals = SignalWatch()
        let stop = AsyncStream<Void>.makeStream()
        signals.onFirst { stop.continuation.finish() }
        for await _ in stop.stream {}
        await server.stop()
        if noHistory { try? FileManager.default.removeItem(atPath: folder) }
        StandardStreams.error("vplay studio: stopped\n")
        throw ExitCode(128 + (signals.received ?? 2))
    }

    /// This process's own binary, which every run starts again as a child.
    static func executable() -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}
