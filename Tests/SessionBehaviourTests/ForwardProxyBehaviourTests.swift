import AdSession
import Foundation
import Networking
import Primitives
import Testing
import TestSupport

/// Issue 37, item 13: a stock forward proxy — tinyproxy from apt, configured as Debian ships it, `CONNECT` allowed to
/// ports 443 and 563 only — carries a whole session of plain-http URLs, because vplay sends them in absolute form
/// (`GET http://host/path`), as curl does. It used to tunnel them with `CONNECT` to port 80, which such a proxy
/// refuses, and the run failed with 301 "invalidProxyResponse". In process on the live environment (real tag loading,
/// FFmpeg, HTTP), with the proxy set on the configuration, so no proxy variable of the machine's can send it direct.
@Suite(.hangLimit) struct ForwardProxyBehaviourTests {
    @Test func aStockForwardProxy_carriesEveryPlainHTTPRequest_inAbsoluteForm() async throws {
        let proxy = try await TinyProxy.start()
        defer { proxy.stop() }
        let clip = URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4"))
        let tag = Locked("")
        let server = try ScriptedHTTPServer { target in
            switch target {
            case "/demo.xml": .body(Data(tag.withLock { $0 }.utf8), contentType: "application/xml")
            case "/clip.mp4": ScriptedHTTPServer.fileReply(for: "/" + clip.lastPathComponent, in: clip.deletingLastPathComponent())
            default: .body(Data("GIF89a".utf8), contentType: "image/gif")
            }
        }
        defer { server.stop() }
        tag.withLock { $0 = (try? DemoTags.text(beaconBase: server.baseURL))?
            .replacingOccurrences(of: "file://\(clip.path)", with: "\(server.baseURL)/clip.mp4") ?? "" }

        // Patient, as every live session of the suite is: a CI run of the whole suite took the tag past its 8 s.
        var configuration = try SessionKit().configuration(cli: LiveSession.patient(["--vast", "\(server.baseURL)/demo.xml", "--beacon-timeout", "120"]))
        configuration.resolver.resolutionTimeout = .seconds(600)
        configuration.proxy = ProxySettings(http: proxy.endpoint, https: proxy.endpoint)
        let records = Locked<[SessionRecord]>([])
        let summary = await AdSessionRunner(configuration: configuration, environment: .live(configuration)).run { record in
            records.withLock { $0.append(record) }
        }
        let errors = records.withLock { $0 }.compactMap { if case let .error(error) = $0 { error.message } else { nil } }
        #expect(summary.outcome == .completed, "\(errors)")
        let beacons = records.withLock { $0 }.compactMap { if case let .beacon(beacon) = $0 { beacon } else { nil } }
        #expect(beacons.count >= 12 && beacons.allSatisfy { $0.status == 200 }, "\(beacons.map { "\($0.url) \(String(describing: $0.status))" })")

        // The proxy's own log: every request of the session came to it, in absolute form, none as CONNECT.
        let requests = proxy.requests()
        #expect(!requests.contains { $0.hasPrefix("CONNECT ") }, "\(requests)")
        #expect(requests.contains("GET \(server.baseURL)/demo.xml HTTP/1.1"), "the tag: \(requests)")
        #expect(requests.contains { $0.hasPrefix("GET \(server.baseURL)/clip.mp4 ") }, "the media, read by FFmpeg: \(requests)")
        for beacon in beacons {
            #expect(requests.contains("GET \(beacon.url) HTTP/1.1"), "\(beacon.url)")
        }
        // The server saw each request once, as the proxy forwarded it.
        #expect(server.requests().filter { $0.target == "/demo.xml" }.count == 1)
    }

    /// The proxy refusing the tunnel is said in words: tinyproxy allows CONNECT to 443 and 563 only, and an https
    /// tag on another port cannot be tunnelled (301, "the proxy refused to open a tunnel").
    @Test func aTunnelTheProxyRefuses_isNamedInWords() async throws {
        let proxy = try await TinyProxy.start()
        defer { proxy.stop() }
        var configuration = try SessionKit().configuration(cli: LiveSession.patient(["--vast", "https://127.0.0.1:8443/tag.xml", "--dry-run"]))
        configuration.resolver.resolutionTimeout = .seconds(600)
        configuration.proxy = ProxySettings(http: proxy.endpoint, https: proxy.endpoint)
        let records = Locked<[SessionRecord]>([])
        _ = await AdSessionRunner(configuration: configuration, environment: .live(configuration)).run { record in
            records.withLock { $0.append(record) }
        }
        let errors = records.withLock { $0 }.compactMap { if case let .error(error) = $0 { error } else { nil } }
        #expect(errors.first?.code.rawValue == 301, "\(errors)")
        #expect(errors.first?.message.contains("the proxy refused to open a tunnel (CONNECT) to the host") == true, "\(errors)")
        #expect(proxy.requests().contains("CONNECT 127.0.0.1:8443 HTTP/1.1"), "\(proxy.requests())")
    }
}

/// tinyproxy (Debian's package, installed by scripts/setup.sh) as a child process on a loopback port, configured as
/// Debian ships it where it matters here: `CONNECT` to ports 443 and 563 only. Its log names every request line.
final class TinyProxy {
    let endpoint: ProxySettings.Endpoint
    private let process: Process
    private let folder: TemporaryFolder
    private let log: URL

    /// Started on a port free a moment before (the kernel's pick, released for tinyproxy to bind); tried again on
    /// another if something took it meanwhile.
    static func start() async throws -> TinyProxy {
        var failure: (any Error)?
        for _ in 0..<3 {
            do { return try await start(port: ScriptedHTTPServer.freePort()) } catch { failure = error }
        }
        throw failure!
    }

    private static func start(port: Int) async throws -> TinyProxy {
        guard let binary = ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"].first(where: FileManager.default.isExecutableFile(atPath:)) else {
            throw KitCommandLineError(description: "tinyproxy is not installed: run scripts/setup.sh")
        }
        let folder = try TemporaryFolder()
        let log = folder.url.appendingPathComponent("tinyproxy.log")
        let configuration = try folder.write("tinyproxy.conf", """
            Port \(port)
            Listen 127.0.0.1
            Timeout 60
            MaxClients 64
            ConnectPort 443
            ConnectPort 563
            LogLevel Connect
            LogFile "\(log.path)"

            """)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["-d", "-c", configuration]
        let output = folder.url.appendingPathComponent("tinyproxy.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: output)
        try process.runAlone()
        let proxy = TinyProxy(endpoint: ProxySettings.Endpoint("http://127.0.0.1:\(port)")!, process: process, folder: folder, log: log)
        // Ready once it accepts a connection *and logs it*: the port was free a moment before, and in a suite full of
        // servers another one may have taken it meanwhile (tinyproxy then exits, and the probe would reach that
        // server; a CI run sent the session's requests to one). A start-up wait, bounded; nothing is timed.
        let pid = process.processIdentifier
        let listening = try await offThePool { () -> Bool in
            for _ in 0..<2400 {
                if kill(pid, 0) != 0 { return false }
                if Self.accepts(port: port), ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains("Connect (") {
                    return kill(pid, 0) == 0
                }
                usleep(25_000)
            }
            return false
        }
        guard listening else {
            proxy.stop()
            let said = (try? String(contentsOf: folder.url.appendingPathComponent("tinyproxy.out"), encoding: .utf8)) ?? ""
            throw KitCommandLineError(description: "tinyproxy did not start listening on 127.0.0.1:\(port): \(said)")
        }
        return proxy
    }

    private init(endpoint: ProxySettings.Endpoint, process: Process, folder: TemporaryFolder, log: URL) {
        (self.endpoint, self.process, self.folder, self.log) = (endpoint, process, folder, log)
    }

    /// The request lines tinyproxy logged, in order (`GET http://… HTTP/1.1`, `CONNECT host:port HTTP/1.1`).
    func requests() -> [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            line.range(of: "): ").flatMap { found in line.contains("Request (") ? String(line[found.upperBound...]) : nil }
        }
    }

    /// Kills it (SIGKILL); Foundation reaps it. (Waiting for the exit here blocked the test's thread.)
    func stop() {
        kill(process.processIdentifier, SIGKILL)
    }

    private static func accepts(port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
