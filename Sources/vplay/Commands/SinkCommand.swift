import AdSession
import ArgumentParser
import BeaconSink
import Foundation

/// `vplay sink --port N [--log hits.jsonl] [--media DIR] [--fault SPEC]…`: the embedded beacon sink as a stand-alone
/// server, for tags whose tracking URLs (and, with `--media`, MediaFiles) point at it. Prints each hit; stops on Ctrl-C.
struct SinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sink",
        abstract: "Run vplay's beacon sink: answer every tracking request (200 and a 1x1 GIF, or a fault) and record it.",
        discussion: """
            Faults: STATUS@PATTERN (500@/midpoint), delay=DURATION@PATTERN (delay=2s@/start), reset@PATTERN, \
            hang@PATTERN, stall@PATTERN, body=SIZE@PATTERN (body=64k@*); add xN before @ to apply to the first N hits \
            only (500x1@/complete). PATTERN is a path prefix, or a glob with * matched against the whole path (or path \
            and query when it contains ?). The first matching of these answers. Shaping faults apply on top, every \
            matching one: rate=SIZE@PATTERN sends bodies at SIZE bytes (not bits) per second (rate=200k@/media/*: \
            200 KiB/s, k = 1024), ttfb=DURATION@PATTERN holds the headers, stall=DURATION@after:PERCENT%@PATTERN \
            pauses the body once PERCENT of the file has been sent (stall=3s@after:40%@/media/*). \
            --media DIR serves DIR's files at /media/<path>, with byte ranges. GET /__vplay/hits returns the hits as JSON.
            """
    )

    @Option(help: .withDefault("Port on 127.0.0.1 (0 = any free port).", 8089, valueName: "port"),
            transform: OptionValue.integer(in: 0...65535, else: "--port must be 0 to 65535"))
    var port = 8089

    @Option(help: ArgumentHelp("Address to listen on. The sink is a test tool: keep it on loopback.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("Append every hit to FILE as JSON Lines (not inside the --media folder).", valueName: "file"),
            completion: .file(), transform: OptionValue.writableFile("--log"))
    var log: String?

    @Option(help: ArgumentHelp("Serve the regular files under DIR at /media/<relative path> (GET, HEAD, byte ranges); nothing outside DIR.", valueName: "dir"), completion: .directory)
    var media: String?

    @Option(help: ArgumentHelp("A fault to play for matching paths: 500@/midpoint, delay=2s@/start, reset@*, hang@*, stall@*, body=64k@*, 500x1@/complete, rate=200k@/media/*, ttfb=2s@/media/*, stall=3s@after:40%@/media/*; repeatable.", valueName: "spec"),
            transform: SinkOptions.fault("--fault"))
    var fault: [SinkFault] = []

    @Flag(help: "Print each hit as JSON instead of text.")
    var json = false

    @Option(help: ArgumentHelp("Serve the reward verifier keys of this --seed (the key vplay signs reward callbacks with) at /__vplay/ssv/verifier-keys.json.", valueName: "seed"))
    var rewardSeed: UInt64?

    /// The log is an output: never a file the sink serves (`--log DIR/clip.mp4` appended hit records to the media).
    func validate() throws {
        try OptionValue.checkNoClash(outputs: [("--log", log)], inputs: [], inputFolders: media.map { [("--media", $0)] } ?? [])
    }

    func run() async throws {
        var configuration = SinkConfiguration(host: host, port: port, faults: fault, logPath: log, mediaDirectory: media)
        if let rewardSeed { configuration.documents[RewardSigner.keysPath] = RewardSigner.keysDocument(seed: rewardSeed) }
        let sink = BeaconSink(configuration: configuration)
        let bound: Int
        do { bound = try await sink.start() } catch {
            StandardStreams.fail("sink: \(error)")
            throw ExitCode(1)
        }
        StandardStreams.error("vplay sink: listening on http://\(host):\(bound) (Ctrl-C to stop)\n")
        if let media {
            StandardStreams.error("vplay sink: serving \(media) at http://\(host):\(bound)/media/\n")
        }
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
