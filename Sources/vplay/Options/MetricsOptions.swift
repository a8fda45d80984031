import AdSession
import ArgumentParser
import Metrics
import Primitives

/// `fleet --metrics`: a Prometheus `/metrics` endpoint of the fleet's live figures, and how long it outlives the fleet.
struct MetricsOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Serve the fleet's live figures as Prometheus metrics at http://ADDR/metrics while it runs: [HOST:]PORT, HOST 127.0.0.1 unless given (0.0.0.0:9464 in a pod to be scraped); names and labels in docs/guides/fleets.md.", valueName: "addr"),
            transform: Self.address)
    var metrics: Address?

    @Option(help: .withDefault("After the fleet ends, keep serving --metrics until its final figures have been scraped once, at most this many seconds (so the last scrape of a shard sees them).", seconds: .zero),
            transform: OptionValue.seconds(else: "--metrics-linger must be 0 or more seconds, at most a year"))
    var metricsLinger: Duration = .zero

    struct Address: Sendable, Equatable {
        var host: String
        var port: Int
    }

    @Sendable static func address(_ text: String) throws -> Address {
        let (host, port): (String, Substring)
        if let colon = text.lastIndex(of: ":") {
            var name = String(text[..<colon])
            if name.hasPrefix("["), name.hasSuffix("]") { name = String(name.dropFirst().dropLast()) }
            (host, port) = (name.isEmpty ? "127.0.0.1" : name, text[text.index(after: colon)...])
        } else {
            (host, port) = ("127.0.0.1", Substring(text))
        }
        guard let number = Int(port), (0...65_535).contains(number), !host.contains(where: { $0 == "/" || $0 == " " }) else {
            throw ValidationError("--metrics must be [HOST:]PORT, e.g. 9464 or 0.0.0.0:9464")
        }
        return Address(host: host, port: number)
    }

    func validate() throws {
        if metrics == nil, metricsLinger > .zero { throw ValidationError("--metrics-linger goes with --metrics") }
    }

    /// Starts the endpoint of `board` when asked for; says where on stderr. Throws a one-line error when it cannot
    /// listen there.
    func start(_ board: FleetMetricsBoard?) async throws -> MetricsServer? {
        guard let address = metrics, let board else { return nil }
        let server = MetricsServer(render: { board.exposition() })
        do {
            let port = try await server.start(host: address.host, port: address.port)
            let host = address.host.contains(":") ? "[\(address.host)]" : address.host
            StandardStreams.note("metrics: http://\(host):\(port)\(MetricsServer.path)")
        } catch {
            throw ValidationError("--metrics \(address.host):\(address.port): cannot listen there (\(error))")
        }
        return server
    }

    /// The fleet is over: its figures are final; with `--metrics-linger`, waits until a scrape has taken them (at most
    /// the linger; not after a signal: Ctrl-C or the cluster's SIGTERM ends the run at once), then stops the endpoint.
    func finish(_ board: FleetMetricsBoard, server: MetricsServer?, signalled: Bool) async {
        guard let server else { return }
        board.finish()
        let clock = LiveTools.monotonicClock(), deadline = clock.now + (signalled ? .zero : metricsLinger)
        while board.finalScrapes == 0, clock.now < deadline {
            do { try await Task.sleep(for: .milliseconds(50)) } catch { break }
        }
        await server.stop()
    }
}
