import Foundation
import Testing
import TestSupport

/// Run bundles (`--bundle`, `--replay`) and `--base`, through the binary over real loopback HTTP.
@Suite(.hangLimit) struct RunBundleTests {
    static let outputs = ["report.json": "--report", "beacons.jsonl": "--beacons", "session.har": "--har", "timeline.svg": "--timeline", "bundle.json": "--bundle"]

    static func outputArguments(_ folder: URL) -> [String] {
        outputs.sorted { $0.key < $1.key }.flatMap { [$0.value, folder.appendingPathComponent($0.key).path] }
    }

    /// Only a real wrapper chain over HTTP shows that the replay asks the server for the media alone (the tag
    /// documents come from the bundle) and that every output is the same, byte for byte.
    @Test func aWrapperChainsBundle_replaysByteForByte_withoutAskingForTheTags() async throws {
        let folder = try TemporaryFolder()
        _ = try folder.write("clip.mp4", try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4"))))
        let server = try ScriptedHTTPServer(files: folder.url.path)
        defer { server.stop() }
        _ = try folder.write("inline.xml", try DemoTags.text().replacingOccurrences(of: "file://\(Repo.media("clip-10s-360p.mp4"))", with: server.baseURL + "/clip.mp4"))
        _ = try folder.write("wrapper.xml", """
            <VAST version="4.1"><Ad id="w"><Wrapper><AdSystem>hop</AdSystem>
            <VASTAdTagURI><![CDATA[\(server.baseURL)/inline.xml?cb=[CACHEBUSTING]]]></VASTAdTagURI>
            <Impression><![CDATA[http://127.0.0.1:8089/wrapper-impression]]></Impression></Wrapper></Ad></VAST>
            """)
        let first = folder.url.appendingPathComponent("first"), second = folder.url.appendingPathComponent("second")
        try FileManager.default.createDirectory(at: first, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        let played = try await vplay(["--vast", server.baseURL + "/wrapper.xml", "--dry-run", "--seed", "3"] + Self.outputArguments(first))
        #expect(played.status == 0, "\(played.stderr)")
        let asked = server.requests().count
        #expect(server.requests().filter { $0.target.contains(".xml") }.count == 2)
        let bundlePath = first.appendingPathComponent("bundle.json").path
        let bundle = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: bundlePath))) as? [String: Any])
        let arguments = try #require(bundle["arguments"] as? [String])
        #expect(arguments.first == "--vast" && arguments.contains("--dry-run") && arguments.contains { $0.hasPrefix("--now=") }, "\(arguments)")
        #expect(!arguments.contains { $0.hasPrefix("--report") || $0.hasPrefix("--bundle") || $0.contains(first.path) }, "outputs are left out: \(arguments)")
        let documents = try #require(bundle["documents"] as? [[String: Any]])
        #expect(documents.count == 2 && documents.first?["url"] as? String == server.baseURL + "/wrapper.xml"
                && (documents.last?["url"] as? String)?.hasPrefix(server.baseURL + "/inline.xml?cb=") == true, "\(documents.map { $0["url"] ?? "" })")
        #expect(documents.allSatisfy { ($0["elapsedNanoseconds"] as? Int ?? -1) >= 0 && ($0["body"] as? String)?.contains("<VAST") == true })

        let replayed = try await vplay(["--replay", bundlePath] + Self.outputArguments(second))
        #expect(replayed.status == 0, "\(replayed.stderr)")
        let again = server.requests().dropFirst(asked)
        #expect(!again.isEmpty && again.allSatisfy { $0.target.hasPrefix("/clip.mp4") }, "only the media is asked for again: \(again.map(\.target))")
        for name in Self.outputs.keys.sorted() {
            let a = try Data(contentsOf: first.appendingPathComponent(name)), b = try Data(contentsOf: second.appendingPathComponent(name))
            #expect(a == b, "\(name) is the same byte for byte")
        }
    }

    @Test func aMissingOrForeignBundle_isAUsageError() async throws {
        let folder = try TemporaryFolder()
        let missing = try await vplay(["--replay", folder.url.appendingPathComponent("none.json").path])
        #expect(missing.status == 2 && missing.stderr.contains("--replay") && missing.stderr.contains("cannot read it"), "\(missing.stderr)")
        let foreign = try folder.write("foreign.json", #"{"log": {"entries": []}}"#)
        let refused = try await vplay(["run", "--replay", foreign])
        #expect(refused.status == 2 && refused.stderr.contains("not a vplay run bundle"), "\(refused.stderr)")
    }

    /// A tag saved away from its media (as the studio saves a pasted tag) finds it only under `--base`.
    @Test func aTagAwayFromItsMedia_playsUnderBase() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("pasted.xml", try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8))
        let lost = try await vplay(["--vast", tag, "--dry-run"])
        #expect(lost.status == 4, "clip-10s-360p.mp4 is not beside the copy: \(lost.stderr)")
        let found = try await vplay(["--vast", tag, "--base", Repo.media(""), "--dry-run", "--json"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(found.lines.last?["outcome"] as? String == "completed")
        // Outputs may go inside the base folder (the studio's data folder may be under its tag folder), but never over
        // the media the tag names there.
        let media = folder.url.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Repo.media("clip-10s-360p.mp4"), toPath: media.appendingPathComponent("clip-10s-360p.mp4").path)
        let beside = try await vplay(["--vast", tag, "--base", media.path, "--dry-run", "--report", media.appendingPathComponent("report.json").path])
        #expect(beside.status == 0, "\(beside.stderr)")
        let clip = media.appendingPathComponent("clip-10s-360p.mp4").path
        let clash = try await vplay(["--vast", tag, "--base", media.path, "--dry-run", "--report", clip])
        #expect(clash.status == 2 && clash.stderr.contains("that is the media file"), "\(clash.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: clip)) == Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4"))), "the clip is untouched")
    }
}
