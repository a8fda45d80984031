import AdSession
import Foundation
import PlayerEngine
import Testing
import TrackingBeacons
import TestSupport

/// Rewards and signed reward callbacks (issue 19): granted once on completion (or at `--reward-at`), forfeited by an
/// early end, and the callback a granted reward sends — its query, and what the seed fixes. The signature is checked
/// by an independent verifier in the end-to-end suite (`RewardCallbackTests`).
@Suite struct RewardBehaviourTests {
    let kit = SessionKit()
    static let callback = ["--reward-callback", "http://127.0.0.1:9/ssv"]

    @Test func aCompletedView_grantsTheRewardOnce_atTheEnd_andSendsOneCallback() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--seed", "5", "--now", "2026-01-01T00:00:00Z",
                                          "--reward-user-id", "user 42", "--reward-custom-data", "level 3&bonus=x2/é"] + Self.callback)
        #expect(run.events(.rewarded).map(\.clock) == [.seconds(10)])
        #expect(run.events(.rewarded).first?.reward == Reward(currency: "Coins", amount: 10))
        let callbacks = run.beacons("rewardCallback")
        #expect(callbacks.count == 1 && callbacks.first?.clock == .seconds(10))
        let url = try #require(callbacks.first?.url)
        #expect(url.hasPrefix("http://127.0.0.1:9/ssv?ad_network=5450213213286189855&ad_unit=1234567890&custom_data=level%203%26bonus%3Dx2%2F%C3%A9&reward_amount=10&reward_item=Coins&timestamp=1767225610000&transaction_id="), "\(url)")
        #expect(url.contains("&user_id=user%2042&signature=") && url.range(of: #"&key_id=[0-9]+$"#, options: .regularExpression) != nil)
        #expect(run.sent.filter { $0.contains("/ssv?") } == [url], "sent once, like any beacon")
    }

    @Test func theSameSeed_givesTheSameCallback_butForTheSignature() async throws {
        let arguments = ["--vast", "media/demo.xml", "--seed", "9", "--now", "2026-01-01T00:00:00Z"] + Self.callback
        func parts(_ arguments: [String]) async throws -> (content: String, signature: String, keyID: String) {
            let url = try #require(try await kit.run(cli: arguments).beacons("rewardCallback").first?.url)
            let signature = try #require(url.range(of: "&signature=")), key = try #require(url.range(of: "&key_id="))
            return (String(url[..<signature.lowerBound]), String(url[signature.upperBound..<key.lowerBound]), String(url[key.upperBound...]))
        }
        let first = try await parts(arguments), second = try await parts(arguments)
        #expect(first.content == second.content && first.keyID == second.keyID)
        #expect(first.signature != second.signature, "ECDSA with a fresh nonce: BoringSSL does not sign per RFC 6979")
        let other = try await parts(arguments.map { $0 == "9" ? "10" : $0 })
        #expect(other.keyID != first.keyID && other.content != first.content, "another seed, another key and transaction")
    }

    @Test(arguments: ["close@3", "skip@6"])
    func anEarlyEnd_forfeitsTheReward_andSendsNoCallback(_ script: String) async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--script", script] + Self.callback)
        #expect(run.events(.rewardForfeited).count == 1 && run.events(.rewarded).isEmpty)
        #expect(run.beacons("rewardCallback").isEmpty && !run.sent.contains { $0.contains("/ssv") })
        #expect(run.summary.playback?.rewardGranted == false)
    }

    @Test func rewardAt_grantsWhenThatShareHasPlayed_andAStopAfterItKeepsIt() async throws {
        let run = try await kit.run(cli: ["--vast", "media/demo.xml", "--reward-at", "30%", "--script", "close@4"] + Self.callback)
        #expect(run.events(.rewarded).map(\.playhead) == [.seconds(3)])
        #expect(run.events(.rewardForfeited).isEmpty && run.beacons("rewardCallback").map(\.clock) == [.seconds(3)])
    }

    /// `vplay reward-check` followed a redirect and sent its signed cases to another origin; it sends them to the
    /// endpoint given and nowhere else now: a redirect is the case's answer (not a credit), its target never asked.
    /// On the transport the command sends with, against real loopback servers.
    @Test(.hangLimit) func rewardCheck_neverFollowsARedirect_toAnotherOrigin() async throws {
        let elsewhere = try ScriptedHTTPServer { _ in .status(200) }
        defer { elsewhere.stop() }
        let endpoint = try ScriptedHTTPServer { _ in .redirect(to: elsewhere.baseURL + "/steal", status: 307) }
        defer { endpoint.stop() }
        let (transport, shutdown) = LiveTools.rewardCheck(SessionConfiguration(tag: endpoint.baseURL + "/ssv"))
        let check = RewardCheck(callback: RewardCallback(url: endpoint.baseURL + "/ssv"), reward: Reward(currency: "Coins", amount: 10), seed: 3, now: kit.wallStart)
        let outcomes = await check.run(transport: transport, accepting: 200...299, timeout: .seconds(300))
        await shutdown()
        #expect(!outcomes.isEmpty && outcomes.allSatisfy { $0.status == 307 && !$0.accepted }, "\(outcomes.map { ($0.status, $0.error) })")
        #expect(endpoint.requests().count == outcomes.count)
        #expect(elsewhere.requests().isEmpty, "no signed case left for another origin")
    }
}
