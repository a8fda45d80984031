import Foundation

/// Turns a checked request into the `vplay` arguments of its child process.
public struct StudioArguments: Sendable {
    /// Where relative URLs of a pasted or dropped tag resolve (`vplay studio --tag-folder`).
    public var tagFolder: String
    /// Flags of the studio's own address policy, given to every child (`--deny-private-networks`, `--deny-loopback`).
    public var policyFlags: [String]

    public init(tagFolder: String, policyFlags: [String]) {
        self.tagFolder = tagFolder
        self.policyFlags = policyFlags
    }

    /// The files the studio writes into the run folder before the child starts (the tag, a trace, the capture),
    /// and the arguments. `folder` is the run's own folder.
    public func make(_ request: StudioRequest, folder: String) throws(StudioRequest.Invalid) -> (files: [String: String], arguments: [String]) {
        var files: [String: String] = [:]
        let path = { (name: String) in (folder as NSString).appendingPathComponent(name) }
        // The tag.
        var tagArguments: [String]
        if let url = request.tag.url?.trimmingCharacters(in: .whitespacesAndNewlines), !url.isEmpty {
            guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), scheme == "http" || scheme == "https", parsed.host != nil else {
                throw .init("the tag URL must be an http(s) URL")
            }
            tagArguments = ["--vast=\(url)"]
        } else if let xml = request.tag.xml, !xml.isEmpty {
            guard xml.utf8.count <= StudioRequest.maxTagBytes else { throw .init("the tag is larger than \(StudioRequest.maxTagBytes >> 20) MiB") }
            files["tag.xml"] = xml
            tagArguments = ["--vast=\(path("tag.xml"))", "--base=\(tagFolder)"]
        } else {
            throw .init("give a tag: paste its XML, drop a file or enter its URL")
        }
        tagArguments += policyFlags
        let options = request.options ?? StudioRequest.Options()
        var arguments: [String]
        switch request.kind {
        case .run:
            arguments = ["run"] + tagArguments + ["--json"]
            arguments += try Self.sessionOptions(options, files: &files, path: path)
            arguments += try Self.delivery(options.delivery)
            arguments += ["--report=\(path("report.json"))", "--beacons=\(path("beacons.jsonl"))", "--har=\(path("session.har"))",
                          "--junit=\(path("junit.xml"))", "--timeline=\(path("timeline.svg"))", "--bundle=\(path("bundle.json"))"]
        case .fleet:
            let fleet = request.fleet ?? StudioRequest.Fleet()
            arguments = ["fleet"] + tagArguments
            arguments += try Self.integer(fleet.sessions, "sessions", in: 1...1_000_000, default: 1000)
            if let value = fleet.concurrency, !value.isEmpty { arguments += try Self.integer(value, "concurrency", in: 1...10_000, default: nil) }
            if let mix = fleet.mix, !mix.isEmpty { arguments.append("--mix=\(try Self.checked(mix, "mix", pattern: #"^[A-Za-z0-9:.,_-]{1,200}$"#))") }
            if let mix = fleet.networkMix, !mix.isEmpty { arguments.append("--network-mix=\(try Self.checked(mix, "network mix", pattern: #"^[A-Za-z0-9:.,=_-]{1,200}$"#))") }
            if let seed = options.seed, !seed.isEmpty { arguments.append("--seed=\(try Self.checked(seed, "seed", pattern: #"^[0-9]{1,20}$"#))") }
            arguments += try Self.delivery(options.delivery)
            arguments += ["--report=\(path("fleet-report.json"))", "--junit=\(path("junit.xml"))", "--progress=\(path("progress.jsonl"))"]
        case .audit:
            guard let capture = request.capture, !capture.text.isEmpty else { throw .init("an audit needs a device capture: a HAR, a sink log or a beacon log") }
            guard capture.text.utf8.count <= StudioRequest.maxCaptureBytes else { throw .init("the capture is larger than \(StudioRequest.maxCaptureBytes >> 20) MiB") }
            let (option, name) = Self.captureKind(capture)
            files[name] = capture.text
            arguments = ["audit"] + tagArguments + ["--\(option)=\(path(name))",
                                                    "--report=\(path("audit.json"))", "--junit=\(path("junit.xml"))", "--timeline=\(path("timeline.svg"))"]
        }
        return (files, arguments)
    }

    /// The lint child that follows a run: the same tag, its findings as NDJSON.
    public func lint(_ request: StudioRequest, folder: String) -> [String] {
        let path = { (name: String) in (folder as NSString).appendingPathComponent(name) }
        var arguments = ["lint"]
        if let url = request.tag.url?.trimmingCharacters(in: .whitespacesAndNewlines), !url.isEmpty {
            arguments.append(url)
        } else {
            arguments += [path("tag.xml"), "--base=\(tagFolder)"]
        }
        return arguments + policyFlags + ["--format=ndjson", "--output=\(path("lint.ndjson"))"]
    }

    /// Which audit option a capture is for: a HAR (`log.entries`), a beacon log (JSON lines with `"kind":"beacon"`),
    /// else a sink log.
    static func captureKind(_ capture: StudioRequest.Capture) -> (option: String, file: String) {
        let head = capture.text.prefix(4096)
        if capture.name.lowercased().hasSuffix(".har") || (head.contains("\"log\"") && head.contains("\"entries\"")) { return ("har", "capture.har") }
        if head.contains("\"kind\":\"beacon\"") || head.contains("\"kind\": \"beacon\"") { return ("beacons", "capture-beacons.jsonl") }
        return ("log", "capture-sink.jsonl")
    }

    static func sessionOptions(_ options: StudioRequest.Options, files: inout [String: String], path: (String) -> String) throws(StudioRequest.Invalid) -> [String] {
        var arguments: [String] = []
        if let speed = options.speed, !speed.isEmpty {
            arguments.append("--speed=\(try checked(speed, "speed", pattern: #"^[0-9]{1,4}(\.[0-9]{1,3})?$"#))")
        } else if let clock = options.clock, !clock.isEmpty {
            arguments.append("--clock=\(try oneOf(clock, "clock", ["virtual", "realtime"]))")
        }
        if let trace = options.networkTrace, !trace.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            guard trace.utf8.count <= 1 << 20, (try? JSONSerialization.jsonObject(with: Data(trace.utf8))) is [Any] else {
                throw .init("the network trace must be a JSON array: [{\"at\": 0, \"kbps\": 2000}, ...]")
            }
            files["trace.json"] = trace
            arguments.append("--network-trace=\(path("trace.json"))")
        } else if let network = options.network, !network.isEmpty {
            arguments.append("--network=\(try checked(network, "network", pattern: #"^(wifi|4g|fast3g|slow3g|offline|kbps=[0-9]{1,7},rtt=[0-9]{1,5})$"#))")
        }
        if let script = options.script, !script.isEmpty {
            arguments.append("--script=\(try checked(script, "script", pattern: #"^[A-Za-z0-9@+.,:=_ -]{1,2000}$"#))")
        }
        if let screen = options.screen, !screen.isEmpty { arguments.append("--screen=\(try checked(screen, "screen", pattern: #"^[0-9]{1,5}x[0-9]{1,5}$"#))") }
        if let pod = options.pod, !pod.isEmpty { arguments.append("--pod=\(try oneOf(pod, "pod", ["all", "first"]))") }
        if let ads = options.breakMaxAds, !ads.isEmpty { arguments += try integer(ads, "break-max-ads", in: 1...100, default: nil) }
        if let viewability = options.viewability, !viewability.isEmpty {
            arguments.append("--viewability=\(try oneOf(viewability, "viewability", ["auto", "measured", "undetermined", "off"]))")
        }
        if let seed = options.seed, !seed.isEmpty { arguments.append("--seed=\(try checked(seed, "seed", pattern: #"^[0-9]{1,20}$"#))") }
        if let now = options.now, !now.isEmpty { arguments.append("--now=\(try checked(now, "now", pattern: #"^[0-9][0-9T:.+Z-]{0,40}$"#))") }
        if let callback = options.rewardCallback, !callback.isEmpty {
            guard let url = URL(string: callback), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                  !callback.hasPrefix("-"), !callback.contains(where: \.isWhitespace) else {
                throw .init("the reward callback must be an http(s) URL")
            }
            arguments.append("--reward-callback=\(callback)")
        }
        if let reward = options.reward, !reward.isEmpty { arguments.append("--reward=\(try checked(reward, "reward", pattern: #"^[A-Za-z0-9_]{1,32}:[0-9]{1,9}(\.[0-9]{1,6})?$"#))") }
        return arguments
    }

    /// What happens to the beacons, said plainly on the page: nothing sent, everything to vplay's sink, only the
    /// tag's own loopback/sink hosts to the sink, or every URL to its real server.
    static func delivery(_ value: String?) throws(StudioRequest.Invalid) -> [String] {
        switch value ?? "sink" {
        case "dry-run": return ["--dry-run"]
        case "sink", "": return ["--sink"]
        case "sink-all": return ["--sink-all"]
        case "real": return []
        case let other: throw .init("delivery must be dry-run, sink, sink-all or real, not '\(other)'")
        }
    }

    static func checked(_ value: String, _ name: String, pattern: String) throws(StudioRequest.Invalid) -> String {
        guard value.range(of: pattern, options: .regularExpression) != nil else { throw .init("\(name): '\(value.prefix(80))' is not a value vplay takes") }
        return value
    }

    static func oneOf(_ value: String, _ name: String, _ values: [String]) throws(StudioRequest.Invalid) -> String {
        guard values.contains(value) else { throw .init("\(name) must be \(values.joined(separator: ", ")), not '\(value.prefix(40))'") }
        return value
    }

    static func integer(_ value: String?, _ name: String, in range: ClosedRange<Int>, default fallback: Int?) throws(StudioRequest.Invalid) -> [String] {
        guard let value, !value.isEmpty else { return fallback.map { ["--\(name)=\($0)"] } ?? [] }
        guard let number = Int(value), range.contains(number) else { throw .init("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)") }
        return ["--\(name)=\(number)"]
    }
}
