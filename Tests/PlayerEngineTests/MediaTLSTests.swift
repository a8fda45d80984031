import Foundation
import TestSupport
import Testing
@testable import PlayerEngine

/// Media over HTTPS is fetched only from a server whose certificate the system trusts, as players do: FFmpeg's TLS
/// layer checks nothing unless told to. The server is Python's `http.server` behind TLS on 127.0.0.1, with a
/// self-signed certificate made by `openssl` for the test.
@Suite(.enabled(if: ["/usr/bin/openssl", "/usr/bin/curl"].allSatisfy(FileManager.default.isExecutableFile(atPath:)),
                "openssl makes the test's certificate; curl checks the server without checking it"))
struct MediaTLSTests {
    /// An HTTPS file server for `root` with a fresh self-signed certificate for 127.0.0.1; returns its port.
    static func startServer(root: String, folder: TemporaryFolder) async throws -> (process: Process, port: Int) {
        let cert = folder.url.appendingPathComponent("cert.pem").path, key = folder.url.appendingPathComponent("key.pem").path
        try await runOffThePool("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                                            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1"])
        let script = """
            import functools, http.server, ssl, sys
            handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
            server = http.server.HTTPServer(("127.0.0.1", 0), handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[2], sys.argv[3])
            server.socket = context.wrap_socket(server.socket, server_side=True)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, root, cert, key]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let line = try await offThePool { String(decoding: pipe.fileHandleForReading.availableData, as: UTF8.self) }
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(process.processIdentifier, SIGKILL)
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the HTTPS server did not start: \(line)"])
        }
        return (process, port)
    }

    @Test(.timeLimit(.minutes(1)))
    func httpsMedia_fromAServerWithAnUntrustedCertificate_isNotPlayed_401() async throws {
        let folder = try TemporaryFolder()
        let (server, port) = try await Self.startServer(root: Repo.root.appendingPathComponent("media").path, folder: folder)
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let url = "https://127.0.0.1:\(port)/clip-5s-video-only.mp4"
        // The server works for a client that does not check certificates (curl -k): only the check refuses it.
        let status = try await offThePool { try run("curl", ["-k", "-s", "-o", "/dev/null", "-w", "%{http_code}", url]) }
        #expect(status == "200")
        let error = try #require(await decodeFailure(url), "played media from a server whose certificate nobody vouches for")
        guard case .unreachable = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode == 401)
    }
}
