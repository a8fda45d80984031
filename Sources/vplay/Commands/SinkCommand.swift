import ArgumentParser
import BeaconSink
import Foundation

/// `vplay sink --port N [--log hits.jsonl] [--fault SPEC]…`: the embedded beacon sink as a stand-alone server, for
/// tags whose tracking URLs point at it. Prints each hit; stops on Ctrl-C.
struct SinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sink",
        abstract: "Run vplay's beacon sink: answer every tracking request (200 and a 1×1 GIF, or a fault) and record it.",
        discussion: """
            Faults: STATUS@PATTERN (500@/midpoint), delay=DURATION@PATTERN (delay=2s@/start), reset@PATTERN, \
            hang@PATTERN, body=SIZE@PATTERN (body=64k@*); add xN before @ to apply to the first N hits only \
            (500x1@/complete). PATTERN is a path prefix, or a glob with * matched against the whole path (or path \
            and query when it contains ?). GET /__vplay/hits returns the hits as JSON.
            """
    )

    @Option(help: .withDefault("Port on 127.0.0.1 (0 = any free port).", 8089, valueName: "port"),
            transform: OptionValue.integer(in: 0...65535, else: "--port must be 0 to 65535"))
    var port = 8089

    @Option(help: ArgumentHelp("Address to listen on. The sink is a test tool: keep it on loopback.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Append every hit to FILE as JSON Lines.", valueName: "file"))
    var log: String?

    @Option(help: ArgumentHelp("A fault to play for matching paths: 500@/midpoint, delay=2s@/start, reset@*, hang@*, stall@*, body=64k@*, 500x1@/complete; repeatable.", valueName: "spec"),
            transform: SinkOptions.fault("--fault"))
    var fault: [SinkFault] = []

    @Flag(help: "Print each hit as JSON instead of text.")
    var json = false

    func run() async throws {
        let sink = BeaconSink(configuration: SinkConfiguration(host: host, port: port, faults: fault, logPath: log))
        let bound: Int
        do { bound = try await sink.start() } catch {
            StandardStreams.error("vplay sink: \(error)\n")
            throw ExitCode(1)
        }
        StandardStreams.error("vplay sink: listening on http://\(host):\(bound) (Ctrl-C to stop)\n")
        let signals = SignalWatch()
        let stop = AsyncStream<Void>.makeStream()
        signals.onFirst { stop.continuation.finish() }
        var shown = 0
        let printer = Task {
            while !Task.isCancelled {
                let hits = sink.hits()
                while shown < hits.count {
                    let hit = hits[shown]
                    let line = json ? String(decoding: hit.jsonBytes, as: UTF8.self)
                        : "\(hit.sequence) \(hit.method) \(hit.target) → \(hit.status.map(String.init) ?? "no answer")\(hit.fault.map { " (\($0))" } ?? "")"
                    StandardStreams.print(line)
                    shown += 1
                }
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        for await _ in stop.stream {}
        printer.cancel()
        await sink.stop()
        StandardStreams.error("vplay sink: stopped after \(sink.hitCount) hits\n")
        try CommandOutputs.exit(0, failures: [sink.logFailure?.description].compactMap { $0 })
    }
}
