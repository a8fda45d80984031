import Foundation
import Testing
import Primitives
import TestSupport

/// `--proxy` and the proxy variables: a loopback proxy sees every request of a run (the tag, the media FFmpeg reads,
/// every beacon), and NO_PROXY sends the hosts it names direct. The "proxy" is the tests' HTTP server answering
/// absolute-form requests itself, for hosts that do not resolve: a request that went direct would fail.
@Suite(.hangLimit) struct ProxyTests {
    /// A proxy that answers as the origin of ads.vplay.test (the demo tag, its beacons moved to track.vplay.test,
    /// and its clip) and of track.vplay.test (204).
    static func proxy() async throws -> LoopbackProxy {
        let folder = try TemporaryFolder()
        let tag = try folder.write("demo.xml", try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "http://127.0.0.1:8089/", with: "http://track.vplay.test/"))
        return try await LoopbackProxy.start(routes: ["http://ads.vplay.test/demo.xml": tag,
                                          "http://ads.vplay.test/clip-10s-360p.mp4": Repo.media("clip-10s-360p.mp4")], keeping: folder)
    }

    /// The URLs of the requests the proxy served (CONNECT lines left out).
    func targets(_ proxy: LoopbackProxy) -> [String] {
        proxy.log().filter { !$0.hasPrefix("CONNECT ") }.map { String($0.split(separator: " ", maxSplits: 1)[1]) }
    }

    /// Only the binary against a real loopback proxy shows the tag, FFmpeg's reads and every beacon through it.
    @Test func proxyOption_seesTheTag_theMedia_andEveryBeacon() async throws {
        let proxy = try await Self.proxy()
        defer { proxy.stop() }
        let folder = try TemporaryFolder()
        let beacons = folder.url.appendingPathComponent("beacons.jsonl").path
        let run = try await vplay(["--vast", "http://ads.vplay.test/demo.xml", "--proxy", proxy.url, "--beacons", beacons,
                                   "--fail-on-beacon-errors", "--now", "2026-01-01T00:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let seen = targets(proxy)
        #expect(seen.first == "http://ads.vplay.test/demo.xml", "the tag came through the proxy, in absolute form")
        #expect(seen.contains("http://ads.vplay.test/clip-10s-360p.mp4"), "FFmpeg read the media through the proxy")
        let sent = try jsonLines(beacons).filter { $0["status"] != nil && !($0["status"] is NSNull) }
        #expect(sent.count >= 12, "the demo's beacons were delivered")
        let beaconTargets = seen.filter { $0.hasPrefix("http://track.vplay.test/") }
        #expect(beaconTargets.count == sent.count, "every beacon went through the proxy: \(beaconTargets.count) of \(sent.count)")
        for event in ["impression", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete"] {
            #expect(beaconTargets.contains { $0.hasPrefix("http://track.vplay.test/\(event)?") }, "\(event)")
        }
    }

    /// Only a process reads `HTTP_PROXY` and `NO_PROXY` from its environment, as the real loopback proxy shows.
    @Test func httpProxyVariable_isUsed_andNoProxySendsItsHostsDirect() async throws {
        let proxy = try await Self.proxy()
        defer { proxy.stop() }
        let run = try await runProcess("/usr/bin/env", ["HTTP_PROXY=\(proxy.url)", "NO_PROXY=track.vplay.test", Repo.vplayBinary,
                                                        "--vast", "http://ads.vplay.test/demo.xml", "--json", "--now", "2026-01-01T00:00:00Z"])
        #expect(run.status == 0, "\(run.stderr)")
        let seen = targets(proxy)
        #expect(seen.contains("http://ads.vplay.test/demo.xml") && seen.contains("http://ads.vplay.test/clip-10s-360p.mp4"))
        #expect(!seen.contains { $0.contains("track.vplay.test") }, "NO_PROXY's host went direct (and, not resolving, failed)")
        let summary = try #require(run.lines.last { $0["kind"] as? String == "summary" })
        let beacons = try #require(summary["beacons"] as? [String: Any])
        #expect(beacons["delivered"] as? Int == 0 && (beacons["failed"] as? Int ?? 0) > 0, "\(beacons)")
    }

    /// Issue 23: an HLS MediaFile's playlist and every segment FFmpeg's hls demuxer reads go through the proxy too
    /// (vplay sets FFmpeg's `http_proxy` per nested URL); the hosts do not resolve, so a direct request would fail.
    /// Only the binary against a real loopback proxy shows FFmpeg's own requests for the playlist and each segment.
    @Test func proxyOption_seesAnHLSPlaylistAndEverySegment() async throws {
        let root = try await HLSFixture.root()
        let folder = try TemporaryFolder()
        let tag = try folder.write("demo.xml", try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: #"delivery="progressive" type="video/mp4""#, with: #"delivery="streaming" type="application/x-mpegURL""#)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[http://cdn.vplay.test/hls/index.m3u8]]>"))
        var routes = ["http://ads.vplay.test/demo.xml": tag, "http://cdn.vplay.test/hls/index.m3u8": "\(root)/hi/index.m3u8"]
        for segment in 0..<5 { routes["http://cdn.vplay.test/hls/seg\(segment).ts"] = "\(root)/hi/seg\(segment).ts" }
        let proxy = try await LoopbackProxy.start(routes: routes, keeping: folder)
        defer { proxy.stop() }
        let run = try await vplay(["--vast", "http://ads.vplay.test/demo.xml", "--proxy", proxy.url, "--dry-run", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let seen = targets(proxy)
        #expect(seen.filter { $0 == "http://cdn.vplay.test/hls/index.m3u8" }.count == 2, "vplay's look, then FFmpeg's: \(seen)")
        #expect((0..<5).allSatisfy { seen.contains("http://cdn.vplay.test/hls/seg\($0).ts") }, "\(seen)")
    }

    /// Only a process reads `HTTPS_PROXY` from its environment: a non-http one exits 2 with a stderr line naming it.
    @Test func aProxyThatIsNotAnHTTPProxy_isAUsageError() async throws {
        // The option is refused while parsing (in process); the environment variable only a process reads.
        let option = CLI.usageError(["--vast", "media/demo.xml", "--dry-run", "--proxy", "socks5://127.0.0.1:1080"])
        #expect(option?.contains("--proxy socks5://127.0.0.1:1080: not an http proxy URL") == true, "\(option ?? "no usage error")")
        let environment = try await runProcess("/usr/bin/env", ["HTTPS_PROXY=ftp://x", Repo.vplayBinary, "--vast", "media/demo.xml", "--dry-run"])
        #expect(environment.status == 2 && environment.stderr.contains("HTTPS_PROXY ftp://x"), "\(environment.stderr)")
    }
}

/// Tests/Tools/loopback-proxy.py as a child process: a forward proxy (absolute-form and CONNECT) on 127.0.0.1 that
/// serves the URLs it is given itself and logs every request.
final class LoopbackProxy: @unchecked Sendable {
    let process = Process()
    let folder: TemporaryFolder
    let logFile: URL
    let port = Locked(0)
    var url: String { "http://127.0.0.1:\(port.withLock { $0 })" }

    /// Starts it and waits (off the cooperative pool) until it listens.
    static func start(routes: [String: String], keeping folder: TemporaryFolder) async throws -> LoopbackProxy {
        let proxy = try LoopbackProxy(routes: routes, keeping: folder)
        let portFile = folder.url.appendingPathComponent("port")
        // Ready when it has written its port (a start-up wait, bounded; nothing is timed). 60 s: python's start-up
        // took over 10 s once, 80 s into a fresh-clone CI run of the whole suite on two busy cores.
        let port = try await offThePool { () -> Int? in
            for _ in 0..<2400 {
                if let text = try? String(contentsOf: portFile, encoding: .utf8), let number = Int(text) { return number }
                usleep(25_000)
            }
            return nil
        }
        guard let port else {
            proxy.stop()
            let errors = (try? String(contentsOf: folder.url.appendingPathComponent("proxy.stderr"), encoding: .utf8)) ?? ""
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the loopback proxy wrote no port in 60 s: \(errors)"])
        }
        proxy.port.withLock { $0 = port }
        return proxy
    }

    private init(routes: [String: String], keeping folder: TemporaryFolder) throws {
        self.folder = folder
        logFile = folder.url.appendingPathComponent("proxy.log")
        let portFile = folder.url.appendingPathComponent("port")
        let routesFile = try folder.write("routes.json", try JSONSerialization.data(withJSONObject: routes))
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Repo.root.appendingPathComponent("Tests/Tools/loopback-proxy.py").path, portFile.path, logFile.path, routesFile]
        process.standardOutput = FileHandle.nullDevice
        let errors = folder.url.appendingPathComponent("proxy.stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.runAlone()
    }

    /// Every request line it logged, in order.
    func log() -> [String] {
        ((try? String(contentsOf: logFile, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    /// Kills it (SIGKILL); Foundation reaps it.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
    }
}
