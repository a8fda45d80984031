import AdSession
import Foundation
import ArgumentParser
import Networking
import BeaconSink

/// vplay's embedded beacon sink, declared once for `run` and `fleet`: which tracking URLs go to it, and the faults
/// it plays.
struct SinkOptions: ParsableArguments {
    @Flag(help: "Start vplay's beacon sink on a free loopback port and send loopback tracking URLs (127.0.0.1, localhost) to it; reconcile fired against received at the end.")
    var sink = false

    @Flag(help: "Like --sink, for every tracking URL (replay a real tag offline).")
    var sinkAll = false

    @Option(help: ArgumentHelp("A fault the sink plays, e.g. 500@/midpoint, delay=2s@/start, reset@*, hang@*, stall@* (headers, then the body stops), body=64k@*, 500x1@/complete; repeatable.", valueName: "spec"),
            transform: Self.fault("--sink-fault"))
    var sinkFault: [SinkFault] = []

    @Option(help: ArgumentHelp("Send every tracking URL to this running collector instead (a `vplay sink`, the collector of a cluster), path and query kept, e.g. http://vplay-sink:8089. Not reconciled: vplay does not see its hits.", valueName: "url"),
            transform: Self.collector)
    var collector: String?

    /// Which tracking URLs go to the sink: nil for none.
    var scope: SinkRouting.Scope? { sinkAll ? .all : sink ? .loopback : nil }

    func validate() throws {
        if !sinkFault.isEmpty && scope == nil { throw ValidationError("--sink-fault needs --sink or --sink-all") }
        if collector != nil && scope != nil { throw ValidationError("--collector sends the beacons elsewhere; it does not go with --sink or --sink-all") }
    }

    /// The rule across these options and the command's `--dry-run`: a sink receives beacons, a dry run sends none.
    func validate(dryRun: Bool) throws {
        if scope != nil && dryRun { throw ValidationError("--sink sends beacons; it does not go with --dry-run") }
        if collector != nil && dryRun { throw ValidationError("--collector sends beacons; it does not go with --dry-run") }
    }

    /// Applies these options to a session configuration.
    func apply(to configuration: inout SessionConfiguration) {
        configuration.sink = scope
        configuration.sinkFaults = sinkFault
        configuration.collector = collector
    }

    /// `--collector`: an http(s) URL of a host (and port), no path, query or user; kept without a trailing `/`.
    @Sendable static func collector(_ text: String) throws -> String {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty,
              components.user == nil, components.query == nil, components.fragment == nil,
              components.path.isEmpty || components.path == "/",
              // A port a connection can use (URLComponents reads 99999 as a port): checked as every requested URL is.
              (try? RequestURL.check(text)) != nil else {
            throw ValidationError("--collector must be an http(s) URL of a host and port (1-65535), e.g. http://vplay-sink:8089 (got \(text))")
        }
        return text.hasSuffix("/") ? String(text.dropLast()) : text
    }

    /// A fault spec given to `option` (`--sink-fault`, `vplay sink --fault`); the grammar is `SinkFault(spec:)`'s.
    static func fault(_ option: String) -> @Sendable (String) throws -> SinkFault {
        { spec in
            do { return try SinkFault(spec: spec) } catch { throw ValidationError("\(option): \(error)") }
        }
    }
}
