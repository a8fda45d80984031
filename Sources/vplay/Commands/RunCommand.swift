import ArgumentParser

struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Play a VAST ad.")
    @Option(help: "VAST tag path or URL.") var vast: String
    func run() async throws {}
}
