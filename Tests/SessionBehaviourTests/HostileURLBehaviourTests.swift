import AdSession
import Foundation
import Testing
import TestSupport
import TrackingBeacons

/// URLs no client can request — a port beyond 65535 on an IP-literal host — in a wrapper, a beacon and a media
/// redirect, and addresses `--deny-private-networks` refuses: in process on the live environment, so the real
/// checks run before the real requests (loopback only). Each once trapped inside SwiftNIO's address set-up; that the
/// process then exits with its code and a summary, not a trap, is `HostileURLTests`.
@Suite(.hangLimit) struct HostileURLBehaviourTests {
    static let badURLs = ["http://127.0.0.1:99999/x", "http://[::1]:4294967296/", "https://127.0.0.1:99999"]

    /// The demo tag with its first Impression replaced by `impression` and, when given, its media by `media`.
    static func demo(_ folder: TemporaryFolder, impression: String? = nil, media: String? = nil) throws -> String {
        var text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
        if let impression {
            text = text.replacingOccurrences(of: "<![CDATA[about:blank]]>", with: "<![CDATA[\(impression)]]>")
        }
        text = text.replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(media ?? Repo.media("clip-10s-360p.mp4"))]]>")
        return try folder.write("demo.xml", text)
    }

    static func wrapper(_ folder: TemporaryFolder, to uri: String) throws -> String {
        try folder.write("wrapper.xml", """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>t</AdSystem>
            <VASTAdTagURI><![CDATA[\(uri)]]></VASTAdTagURI><Error><![CDATA[http://127.0.0.1:9/err?c=[ERRORCODE]]]></Error>
            </Wrapper></Ad></VAST>
            """)
    }

    @Test(arguments: badURLs)
    func wrapperTargetThatCannotBeRequested_is300_inARunADryRunAndInspect(_ url: String) async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.wrapper(folder, to: url)
        for dryRun in [false, true] {
            let run = try await LiveSession.run(cli: ["--vast", tag] + (dryRun ? ["--dry-run"] : []))
            #expect(run.summary.outcome == .adError && run.errors.map(\.code.rawValue) == [300], "\(run.errors)")
            #expect(run.errors.first?.message.contains("cannot be requested") == true, "\(run.errors)")
        }
        let inspection = try await LiveSession.inspect(cli: ["inspect", "--vast", tag])
        #expect(inspection.outcome == .adError && inspection.errors.first?.message.contains("cannot be requested") == true, "\(inspection.errors)")
    }

    @Test(arguments: badURLs)
    func impressionThatCannotBeRequested_isAFailedBeacon_andTheAdPlaysOn(_ url: String) async throws {
        let folder = try TemporaryFolder()
        let run = try await LiveSession.run(cli: ["--vast", try Self.demo(folder, impression: url), "--beacon-timeout", "2"])
        #expect(run.summary.outcome == .completed)
        let refused = try #require(run.attempts.first { $0.url == url })
        #expect(refused.failure?.code == "invalidURL" && refused.status == nil, "\(refused)")
        #expect(run.summary.beaconsFailed >= 1, "--fail-on-beacon-errors sees it (exit 5)")
        #expect(run.events(.complete).count == 1)
    }

    /// Media redirects: to a file (403) and to a bad port (401) are not followed; a redirect that passes is.
    @Test func mediaRedirects_toFile403_toABadPort401_neitherFollowed() async throws {
        let server = try ScriptedHTTPServer { target in
            switch target {
            case "/to-file.mp4": .redirect(to: "file:///etc/passwd")
            case "/to-port.mp4": .redirect(to: "http://127.0.0.1:99999/clip.mp4")
            case "/moved.mp4": .redirect(to: "/clip.mp4", status: 301)
            case "/clip.mp4": .file(Repo.media("clip-5s-video-only.mp4"))
            default: .status(204)
            }
        }
        defer { server.stop() }
        for (path, code) in [("/to-file.mp4", 403), ("/to-port.mp4", 401), ("/moved.mp4", 0)] {
            let folder = try TemporaryFolder()
            let run = try await LiveSession.run(cli: ["--vast", try Self.demo(folder, media: server.baseURL + path), "--dry-run"])
            if code == 0 {
                #expect(run.summary.outcome == .completed, "\(path): \(run.errors)")
            } else {
                #expect(run.summary.outcome == .mediaError && run.errors.first?.code.rawValue == code, "\(path): \(run.errors)")
            }
        }
        let targets = server.requests().map(\.target)
        #expect(!targets.contains { $0.contains("passwd") })
        #expect(targets.filter { $0 == "/clip.mp4" }.count >= 1, "a redirect that passes is followed: \(targets)")
    }

    @Test func denyPrivateNetworks_refusesAWrapperToTheMetadataAddressAndAPrivateBeacon_loopbackPlays() async throws {
        let folder = try TemporaryFolder()
        let wrapper = try Self.wrapper(folder, to: "http://169.254.169.254/latest/meta-data/")
        let run = try await LiveSession.run(cli: ["--vast", wrapper, "--deny-private-networks"])
        #expect(run.summary.outcome == .adError && run.errors.map(\.code.rawValue) == [300], "\(run.errors)")
        #expect(run.errors.first?.message.contains("169.254.169.254 is a link-local address") == true, "\(run.errors)")

        let tag = try Self.demo(folder, impression: "http://10.11.12.13/imp")
        let played = try await LiveSession.run(cli: ["--vast", tag, "--deny-private-networks", "--beacon-timeout", "2"])
        #expect(played.summary.outcome == .completed, "\(played.errors)")
        let refused = try #require(played.attempts.first { $0.url == "http://10.11.12.13/imp" })
        #expect(refused.failure?.code == "addressDenied", "\(refused)")

        let loopback = try await LiveSession.run(cli: ["--vast", tag, "--deny-private-networks", "--deny-loopback", "--beacon-timeout", "2"])
        #expect(!loopback.attempts.isEmpty && loopback.attempts.allSatisfy { $0.failure?.code == "addressDenied" }, "\(loopback.attempts.prefix(3))")
    }

    /// `--deny-loopback` alone let a wrapper reach a service on this machine through the unspecified address and
    /// numeric hosts (`0.0.0.0`, `0`, `[::]`, `2130706433`, `[::ffff:127.0.0.1]`): each is refused (300) before any
    /// request, and the real server listening on loopback sees none.
    @Test func denyLoopback_refusesTheUnspecifiedAddressAndNumericLoopbackHosts() async throws {
        let server = try ScriptedHTTPServer { _ in .file(Repo.media("demo.xml")) }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        for host in ["0.0.0.0", "0", "[::]", "2130706433", "[::ffff:127.0.0.1]", "[::127.0.0.1]"] {
            let wrapper = try Self.wrapper(folder, to: "http://\(host):\(server.port)/tag.xml")
            let run = try await LiveSession.run(cli: ["--vast", wrapper, "--deny-loopback", "--dry-run"])
            #expect(run.summary.outcome == .adError && run.errors.map(\.code.rawValue) == [300], "\(host): \(run.errors)")
            #expect(run.errors.first?.message.contains("refused") == true, "\(host): \(run.errors)")
        }
        #expect(server.requests().isEmpty, "\(server.requests().map(\.target))")
    }

    /// The `--collector` host was trusted for every request the tag made: its media on the collector's host was
    /// fetched under `--deny-loopback`. Only the beacons routed to the collector's exact origin pass now; the media
    /// is refused (401) and never requested, and the collector still gets the beacons.
    @Test func collector_isTrustedForItsBeaconsOnly_notForTheTagsMedia() async throws {
        let collector = try ScriptedHTTPServer { target in target == "/clip.mp4" ? .file(Repo.media("clip-10s-360p.mp4")) : .status(204) }
        defer { collector.stop() }
        let folder = try TemporaryFolder()
        let tag = try Self.demo(folder, media: collector.baseURL + "/clip.mp4")
        let run = try await LiveSession.run(cli: ["--vast", tag, "--deny-loopback", "--collector", collector.baseURL, "--beacon-timeout", "300"])
        #expect(run.summary.outcome == .mediaError, "\(run.errors)")
        #expect(run.errors.first?.message.contains("refused") == true, "\(run.errors)")
        let targets = collector.requests().map(\.target)
        #expect(!targets.contains("/clip.mp4"), "the media was never requested")
        #expect(!targets.isEmpty && run.attempts.allSatisfy { $0.status == 204 }, "the beacons reached the collector: \(targets)")
    }
}
