import AdSession
import Foundation
import Primitives
import Testing
import TestSupport

/// Issue 37, item 13: `--ca-cert FILE` trusts one more certificate authority — an intercepting proxy's (Charles',
/// mitmproxy's) or a test server's — for every https request vplay makes: the tag (async-http-client), the media
/// (FFmpeg, whose TLS layer reads one bundle instead of the system's store: vplay gives it the system's and the file's
/// together) and the beacons. Without it the untrusted certificate is said in words, naming the option. In process on
/// the live environment against the tests' TLS server, whose self-signed certificate (`TestCertificate`) is its own CA.
@Suite(.hangLimit) struct TrustedCABehaviourTests {
    /// A tag, its media and its beacons, all on one https server.
    static func server() throws -> ScriptedHTTPServer {
        let clip = URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4"))
        let tag = Locked("")
        let server = try ScriptedHTTPServer(tls: true) { target in
            switch target {
            case "/demo.xml": .body(Data(tag.withLock { $0 }.utf8), contentType: "application/xml")
            case "/clip.mp4": ScriptedHTTPServer.fileReply(for: "/" + clip.lastPathComponent, in: clip.deletingLastPathComponent())
            default: .body(Data("GIF89a".utf8), contentType: "image/gif")
            }
        }
        tag.withLock { $0 = (try? DemoTags.text(beaconBase: server.baseURL))?
            .replacingOccurrences(of: "file://\(clip.path)", with: "\(server.baseURL)/clip.mp4") ?? "" }
        return server
    }

    static func play(_ arguments: [String]) async throws -> (summary: SessionSummary, records: [SessionRecord]) {
        var configuration = try SessionKit().configuration(cli: LiveSession.patient(arguments + ["--beacon-timeout", "120"]))
        configuration.resolver.resolutionTimeout = .seconds(600)
        let records = Locked<[SessionRecord]>([])
        let summary = await AdSessionRunner(configuration: configuration, environment: .live(configuration)).run { record in
            records.withLock { $0.append(record) }
        }
        return (summary, records.withLock { $0 })
    }

    static func errors(_ records: [SessionRecord]) -> [String] {
        records.compactMap { if case let .error(error) = $0 { error.message } else { nil } }
    }

    @Test func withTheServersCA_theTagTheMediaAndEveryBeaconGoOverTLS() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let ca = try folder.write("test-ca.pem", TestCertificate.certificatePEM)
        let (summary, records) = try await Self.play(["--vast", "\(server.baseURL)/demo.xml", "--ca-cert", ca])
        #expect(summary.outcome == .completed, "\(Self.errors(records))")
        let beacons = records.compactMap { if case let .beacon(beacon) = $0 { beacon } else { nil } }
        #expect(beacons.count >= 12 && beacons.allSatisfy { $0.url.hasPrefix("https://") && $0.status == 200 },
                "\(beacons.map { "\($0.url) \(String(describing: $0.status))" })")
        #expect(server.requests().contains { $0.target == "/clip.mp4" }, "FFmpeg read the media over TLS")
    }

    @Test func withoutIt_theUntrustedCertificateIsSaidInWords_namingTheOption() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let (summary, records) = try await Self.play(["--vast", "\(server.baseURL)/demo.xml", "--dry-run"])
        #expect(summary.outcome != .completed)
        let message = try #require(Self.errors(records).first)
        #expect(message.contains("certificate is not trusted") && message.contains("--ca-cert"), "\(message)")
        // Not the TLS library's text: no source path, no internal error names.
        #expect(!message.contains(".cc:") && !message.contains("OPENSSL_internal"), "\(message)")
    }

    @Test func untrustedMedia_isSaidInWordsToo() async throws {
        let server = try Self.server()
        defer { server.stop() }
        // The tag from a file, its media from the TLS server.
        let folder = try TemporaryFolder()
        let text = try DemoTags.text().replacingOccurrences(of: "file://\(Repo.media("clip-10s-360p.mp4"))", with: "\(server.baseURL)/clip.mp4")
        let tag = try folder.write("tag.xml", text)
        let (summary, records) = try await Self.play(["--vast", tag, "--dry-run"])
        #expect(summary.outcome != .completed)
        let message = try #require(Self.errors(records).first)
        #expect(message.contains("certificate is not trusted") && message.contains("--ca-cert"), "\(message)")
    }

    @Test func aFileWithoutACertificate_isAUsageErrorNamingIt() throws {
        let folder = try TemporaryFolder()
        let key = try folder.write("key.pem", TestCertificate.privateKeyPEM)
        #expect(throws: (any Error).self) { try SessionKit().configuration(cli: ["--vast", "media/demo.xml", "--ca-cert", key]) }
        do { _ = try SessionKit().configuration(cli: ["--vast", "media/demo.xml", "--ca-cert", key]) } catch {
            #expect("\(error)".contains("--ca-cert \(key): no PEM certificate"), "\(error)")
        }
        do { _ = try SessionKit().configuration(cli: ["--vast", "media/demo.xml", "--ca-cert", folder.url.path + "/missing.pem"]) } catch {
            #expect("\(error)".contains("--ca-cert \(folder.url.path)/missing.pem: cannot read it"), "\(error)")
        }
    }
}
