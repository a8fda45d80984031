import Foundation
import Testing
import TestSupport

/// The built `vplay` given URLs no client can request — a port beyond 65535 on an IP-literal host — as a tag and as a
/// fleet's beacon. Each once killed vplay with exit 132 (a trap inside SwiftNIO's address set-up) and no summary; only
/// a process shows that it now exits with the error's code and prints its summary. The error each place calls for
/// (wrapper, beacon, media redirect, refused addresses) is `HostileURLBehaviourTests`, in process.
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

    /// Only a process shows exit 3 for run and inspect (a SwiftNIO trap gave 132), the summary still on stdout.
    @Test(arguments: badURLs)
    func vastURLThatCannotBeRequested_is300_withASummary(_ url: String) async throws {
        let run = try await vplay(["--vast", url, "--json"])
        #expect(run.status == 3, "exit \(run.status): \(run.stderr)")
        #expect(Self.errorCode(run) == 300)
        #expect(Self.summary(run)?["outcome"] as? String == "adError")
        let inspect = try await vplay(["inspect", "--vast", url, "--json"])
        #expect(inspect.status == 3, "inspect exit \(inspect.status): \(inspect.stderr)")
    }

    /// Only a process shows the fleet exiting below 128 (no trap) with the invalid URL in its report on stdout.
    @Test func fleet_withABeaconThatCannotBeRequested_countsItFailed() async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.demo(folder, impression: "http://127.0.0.1:99999/imp")
        let run = try await vplay(["fleet", "--vast", tag, "--sessions", "4", "--seed", "3", "--beacon-timeout", "2", "--json"])
        #expect(run.status != 132 && run.status != 134 && run.status < 128, "exit \(run.status): \(run.stderr)")
        #expect(run.stdout.contains("invalid URL"), "\(run.stdout.prefix(2000))")
    }
}
