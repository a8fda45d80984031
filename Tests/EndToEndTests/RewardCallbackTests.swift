import Foundation
import Primitives
import Testing
import TestSupport

/// Issue 19: signed reward callbacks (AdMob server-side verification) checked with an independent verifier
/// (scripts/ssv-verifier.py, on Python's `cryptography` package, which scripts/setup.sh installs), and `reward-check`
/// against two loopback endpoints built on it: a correct verifier and a naive one.
@Suite(.hangLimit) struct RewardCallbackTests {
    static let verifier = Repo.root.appendingPathComponent("scripts/ssv-verifier.py").path

    /// The verifier says whether `url` verifies with the keys in `keys` (over the decoded query, or the raw one).
    func verifies(_ url: String, keys: String, raw: Bool = false) async throws -> Bool {
        let run = try await runProcess("/usr/bin/env", ["python3", Self.verifier, "verify", keys, url] + (raw ? ["--raw"] : []))
        #expect(run.status == 0 || run.status == 1, "the verifier ran: \(run.stderr)")
        return run.status == 0
    }

    func callbacks(_ lines: [[String: Any]]) -> [[String: Any]] {
        lines.filter { $0["kind"] as? String == "beacon" && $0["event"] as? String == "rewardCallback" }
    }

    /// Only the binary with its embedded sink shows the callback sent over HTTP and the keys file it writes.
    @Test func aGrantedReward_sendsOneCallback_thatVerifiesOverTheDecodedQuery() async throws {
        let folder = try TemporaryFolder()
        let keys = folder.url.appendingPathComponent("keys.json").path
        let run = try await vplay(["--vast", "media/demo.xml", "--sink", "--json", "--seed", "5", "--now", "2026-01-01T00:00:00Z",
                                   "--reward-callback", "http://127.0.0.1:8089/ssv", "--reward-user-id", "user 42",
                                   "--reward-custom-data", "level 3&bonus=x2/é", "--reward-keys", keys])
        #expect(run.status == 0, "\(run.stderr)")
        let sent = callbacks(run.lines)
        #expect(sent.count == 1 && sent.first?["status"] as? Int == 200 && sent.first?["clock"] as? Double == 10)
        let url = try #require(sent.first?["url"] as? String)
        #expect(url.hasPrefix("http://127.0.0.1:8089/ssv?ad_network=5450213213286189855&ad_unit=1234567890&custom_data=level%203%26bonus%3Dx2%2F%C3%A9&reward_amount=10&reward_item=Coins&timestamp=1767225610000&transaction_id="), "\(url)")
        #expect(url.contains("&user_id=user%2042&signature=") && url.range(of: #"&key_id=[0-9]+$"#, options: .regularExpression) != nil)
        #expect(try await verifies(url, keys: keys), "Google's algorithm, independently implemented, accepts it")
        #expect(try await !verifies(url, keys: keys, raw: true), "custom_data needs escaping: the raw query is not what was signed")
        let sink = try #require(run.lines.first { $0["kind"] as? String == "reconciliation" })
        #expect(sink["matched"] as? Int == sink["sent"] as? Int, "the sink received it like any beacon")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: keys))) as? [String: Any])
        let key = try #require((document["keys"] as? [[String: Any]])?.first)
        #expect((key["pem"] as? String)?.hasPrefix("-----BEGIN PUBLIC KEY-----") == true && (key["base64"] as? String)?.hasPrefix("MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcD") == true)
        #expect(url.hasSuffix("&key_id=\(key["keyId"] as? Int64 ?? -1)"))
    }

    /// Starts the verifier as an HTTP endpoint; returns its base URL and the process.
    func endpoint(keys: String, naive: Bool) async throws -> (url: String, process: Process) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.verifier, "serve", keys] + (naive ? ["--naive"] : [])
        let output = Pipe()
        process.standardOutput = output
        // Not the test runner's own stderr: a server left running would hold it open.
        process.standardError = FileHandle.nullDevice
        try process.runAlone()
        // A blocking read, off Swift's cooperative pool.
        let reader = output.fileHandleForReading
        let line = String(decoding: try await offThePool { reader.availableData }, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return ("http://127.0.0.1:\(line)/ssv", process)
    }

    /// Only the binary against real loopback verifier endpoints shows `reward-check`'s exit status and JUnit file.
    @Test func rewardCheck_passesACorrectVerifier_andNamesEachForgeryANaiveOneAccepts() async throws {
        let folder = try TemporaryFolder()
        let keys = folder.url.appendingPathComponent("keys.json").path
        // The keys first (the endpoints read them per request).
        let written = try await vplay(["reward-check", "http://127.0.0.1:9/none", "--reward-keys", keys, "--seed", "3", "--timeout", "1"])
        #expect(written.status == 1 && FileManager.default.fileExists(atPath: keys))
        let correct = try await endpoint(keys: keys, naive: false)
        defer { kill(correct.process.processIdentifier, SIGKILL) }
        let naive = try await endpoint(keys: keys, naive: true)
        defer { kill(naive.process.processIdentifier, SIGKILL) }
        let junit = folder.url.appendingPathComponent("junit.xml").path
        let good = try await vplay(["reward-check", correct.url, "--seed", "3", "--json", "--junit", junit])
        #expect(good.status == 0, "\(good.stdout)")
        #expect(good.lines.count == 12 && good.lines.allSatisfy { $0["passed"] as? Bool == true })
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"tests="12" failures="0""#) && xml.contains(#"name="rotated-key""#))
        let bad = try await vplay(["reward-check", naive.url, "--seed", "3"])
        #expect(bad.status == 1)
        #expect(bad.stdout.contains("wrong: replayed-transaction, signature-not-last, escaped-custom-data, escaped-custom-data-raw-signed"), "\(bad.stdout)")
    }

    /// Only the binary with its embedded sink shows a fleet's reward callbacks received over loopback HTTP.
    @Test func aFleet_countsTheCallbacksItGrants_andTheSinkReceivesThem() async throws {
        let run = try await vplay(["fleet", "--vast", "media/demo.xml", "--sessions", "100", "--sink", "--json", "--reward-callback", "http://127.0.0.1:8089/ssv"])
        #expect(run.status == 0, "\(run.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let population = try #require(report["population"] as? [String: Any])
        let row = try #require((population["beacons"] as? [[String: Any]])?.first { $0["event"] as? String == "rewardCallback" })
        #expect(row["expected"] as? Int == population["rewardsGranted"] as? Int && row["sent"] as? Int == row["expected"] as? Int)
        #expect(row["received"] as? Int == row["sent"] as? Int && (row["sent"] as? Int ?? 0) > 0)
        #expect((report["checks"] as? [String: Any])?["sentAsExpected"] as? Bool == true)
    }
}
