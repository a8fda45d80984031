import Foundation
import Testing
import TestSupport

/// The built `vplay` given URLs no client can request — a port beyond 65535 on an IP-literal host, in every place a
/// URL comes from — and redirects to them. Each once killed vplay with exit 132 (a trap inside SwiftNIO's address
/// set-up) and no summary; now each is the error its place calls for, and the run ends as usual.
@Suite(.hangLimit) struct HostileURLTests {
    static let badURLs = ["http://127.0.0.1:99999/x", "http://[::1]:4294967296/", "https://127.0.0.1:99999"]

    static func summary(_ run: Invocation) -> [String: Any]? {
        run.lines.last { $0["kind"] as? String == "summary" }
    }

    static func errorCode(_ run: Invocation) -> Int? {
        run.lines.first { $0["kind"] as? String == "error" }?["code"] as? Int
    }

    /// The demo tag with its first Impression replaced by `impression` and, when given, its media by `media`.
    static func demo(_ folder: TemporaryFolder, impression: String? = nil, media: String? = nil) throws -> String {
        var text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
        if let impression {
            text = text.replacingOccurrences(of: "<![CDATA[about:blank]]>", with: "<![CDATA[\(impression)]]>")
        }
        text = text.replacingOccurrences(of: ">clip-10s-360p.mp4<", with: ">\(media ?? Repo.media("clip-10s-360p.mp4"))<")
        text = text.replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(media ?? Repo.media("clip-10s-360p.mp4"))]]>")
        return try folder.write("demo.xml", text)
    }

    static func wrapper(_ folder: TemporaryFolder, to uri: String, errorURL: String = "http://127.0.0.1:9/err?c=[ERRORCODE]") throws -> String {
        try folder.write("wrapper.xml", """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>t</AdSystem>
            <VASTAdTagURI><![CDATA[\(uri)]]></VASTAdTagURI><Error><![CDATA[\(errorURL)]]></Error>
            </Wrapper></Ad></VAST>
            """)
    }

    @Test(arguments: badURLs)
    func vastURLThatCannotBeRequested_is300_withASummary(_ url: String) async throws {
        let run = try await vplay(["--vast", url, "--json"])
        #expect(run.status == 3, "exit \(run.status): \(run.stderr)")
        #expect(Self.errorCode(run) == 300)
        #expect(Self.summary(run)?["outcome"] as? String == "adError")
        let inspect = try await vplay(["inspect", "--vast", url, "--json"])
        #expect(inspect.status == 3, "inspect exit \(inspect.status): \(inspect.stderr)")
    }

    @Test(arguments: badURLs)
    func wrapperTargetThatCannotBeRequested_is300_inARunADryRunAndInspect(_ url: String) async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.wrapper(folder, to: url)
        for arguments in [["--vast", tag, "--json"], ["--vast", tag, "--json", "--dry-run"], ["inspect", "--vast", tag, "--json"]] {
            let run = try await vplay(arguments)
            #expect(run.status == 3, "\(arguments): exit \(run.status): \(run.stderr)")
            #expect(run.stdout.contains("cannot be requested") || run.stderr.contains("cannot be requested"), "\(arguments): \(run.stdout)")
        }
    }

    @Test(arguments: badURLs)
    func impressionThatCannotBeRequested_isAFailedBeacon_andTheAdPlaysOn(_ url: String) async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.demo(folder, impression: url)
        let log = folder.url.appendingPathComponent("beacons.jsonl").path
        let run = try await vplay(["--vast", tag, "--json", "--beacons", log, "--beacon-timeout", "2"])
        #expect(run.status == 0, "exit \(run.status): \(run.stderr)")
        #expect(Self.summary(run)?["outcome"] as? String == "completed")
        let refused = try #require(try jsonLines(log).first { $0["url"] as? String == url })
        #expect(refused["errorCode"] as? String == "invalidURL" && refused["delivered"] as? Bool == false, "\(refused)")
        // --fail-on-beacon-errors still sees it.
        let strict = try await vplay(["--vast", tag, "--json", "--fail-on-beacon-errors", "--beacon-timeout", "2"])
        #expect(strict.status == 5, "exit \(strict.status)")
    }

    @Test func fleet_withABeaconThatCannotBeRequested_countsItFailed() async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.demo(folder, impression: "http://127.0.0.1:99999/imp")
        let run = try await vplay(["fleet", "--vast", tag, "--sessions", "4", "--seed", "3", "--beacon-timeout", "2", "--json"])
        #expect(run.status != 132 && run.status != 134 && run.status < 128, "exit \(run.status): \(run.stderr)")
        #expect(run.stdout.contains("invalid URL"), "\(run.stdout.prefix(2000))")
    }

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
        for (path, code, exit) in [("/to-file.mp4", 403, Int32(4)), ("/to-port.mp4", 401, 4), ("/moved.mp4", 0, 0)] {
            let folder = try TemporaryFolder()
            let tag = try Self.demo(folder, media: server.baseURL + path)
            let run = try await vplay(["--vast", tag, "--json", "--dry-run"])
            #expect(run.status == exit, "\(path): exit \(run.status): \(run.stderr)")
            if code != 0 { #expect(Self.errorCode(run) == code, "\(path)") }
        }
        let targets = server.requests().map(\.target)
        #expect(!targets.contains { $0.contains("passwd") })
        #expect(targets.filter { $0 == "/clip.mp4" }.count >= 1, "a redirect that passes is followed: \(targets)")
    }

    @Test func denyPrivateNetworks_refusesAWrapperToTheMetadataAddressAndAPrivateBeacon_loopbackPlays() async throws {
        let folder = try TemporaryFolder()
        let wrapper = try Self.wrapper(folder, to: "http://169.254.169.254/latest/meta-data/")
        let run = try await vplay(["--vast", wrapper, "--json", "--deny-private-networks"])
        #expect(run.status == 3 && Self.errorCode(run) == 300, "exit \(run.status): \(run.stdout)")
        #expect(run.stdout.contains("169.254.169.254 is a link-local address"))

        let tag = try Self.demo(folder, impression: "http://10.11.12.13/imp")
        let played = try await vplay(["--vast", tag, "--json", "--deny-private-networks", "--beacon-timeout", "2"])
        #expect(played.status == 0, "exit \(played.status): \(played.stderr)")
        let refused = try #require(played.lines.first { $0["kind"] as? String == "beacon" && $0["url"] as? String == "http://10.11.12.13/imp" })
        #expect(refused["errorCode"] as? String == "addressDenied", "\(refused)")

        let loopback = try await vplay(["--vast", tag, "--json", "--deny-private-networks", "--deny-loopback", "--beacon-timeout", "2"])
        let beacons = loopback.lines.filter { $0["kind"] as? String == "beacon" }
        #expect(!beacons.isEmpty && beacons.allSatisfy { $0["errorCode"] as? String == "addressDenied" }, "\(beacons.prefix(3))")
    }
}
