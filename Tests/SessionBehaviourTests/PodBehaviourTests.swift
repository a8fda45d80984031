import AdSession
import PlayerEngine
import Testing
import TrackingBeacons
import TestSupport

/// Ad pods (issue 17) on the repo's pod tags (media/pods, written by make-pods.py), in process: every ad in sequence
/// order on one session clock, a failed ad replaced from the buffet (or skipped), user actions and the reward across
/// the pod, the break's limits. Each ad plays `clip-5s-video-only.mp4` (5.000 s), so times are exact multiples.
@Suite struct PodBehaviourTests {
    let kit = SessionKit()

    @Test func aFailingMiddleAd_isReplacedByTheBuffetAd_itsErrorToItsOwnChainOnly() async throws {
        let run = try await kit.run(cli: ["--vast", "media/pods/pod-failing.xml"])
        #expect(run.summary.outcome == .completed)
        #expect(run.beacons("error").map(\.url) == ["http://127.0.0.1:8089/pod/pod-ad-2/error?code=401&seq=2&count=1&bp=4&pos=-1"])
        let impressions = run.events(.impression)
        #expect(impressions.map { $0.ad?.id } == ["pod-ad-1", "pod-standalone", "pod-ad-3"])
        #expect(impressions.map(\.clock) == [.zero, .seconds(5), .seconds(10)])
        #expect(run.ads.map { "\($0.ad.index) \($0.ad.id ?? "") \($0.outcome) \($0.error?.code.rawValue ?? 0) \($0.substitute)" }
            == ["1 pod-ad-1 completed 0 false", "2 pod-ad-2 failed 401 false", "2 pod-standalone completed 0 true", "3 pod-ad-3 completed 0 false"])
        #expect(run.beacons(containing: "/pod/pod-standalone/impression").map(\.url)
            == ["http://127.0.0.1:8089/pod/pod-standalone/impression?seq=-1&count=2&bp=4&pos=00%3A00%3A00.000"])
        #expect(run.beacons(containing: "/pod/pod-ad-3/impression").map(\.url)
            == ["http://127.0.0.1:8089/pod/pod-ad-3/impression?seq=3&count=3&bp=4&pos=00%3A00%3A00.000"])
        // Every beacon planned went to the transport, once, and was answered.
        #expect(run.sent.sorted() == run.planned.map(\.url).sorted())
        #expect(run.summary.beaconsDelivered == run.planned.count && run.summary.beaconsFailed == 0)
    }

    @Test func aFailingMiddleAd_withNoBuffetAd_isSkipped_andThePodMovesOn() async throws {
        let run = try await kit.run(cli: ["--vast", "media/pods/pod-failing-alone.xml"])
        #expect(run.summary.outcome == .completed)
        #expect(run.beacons("error").map(\.url) == ["http://127.0.0.1:8089/pod/pod-ad-2/error?code=401&seq=2&count=1&bp=4&pos=-1"])
        #expect(run.events(.impression).map { $0.ad?.id } == ["pod-ad-1", "pod-ad-3"])
        #expect(run.events(.impression).map(\.clock) == [.zero, .seconds(5)])
        #expect(run.beacons(containing: "/pod/pod-ad-3/start").map(\.url)
            == ["http://127.0.0.1:8089/pod/pod-ad-3/start?seq=3&count=2&bp=4&pos=00%3A00%3A00.000"])
        #expect(run.outcomes == [.completed, .failed, .completed])
    }

    @Test(arguments: ["skip@ad2+3", "skip@8"])
    func aSkipInAd2_playsAd3_andForfeitsThePodsReward(_ script: String) async throws {
        let run = try await kit.run(cli: ["--vast", "media/pods/pod.xml", "--reward", "coins:1", "--script", script])
        #expect(run.summary.outcome == .completed)
        let skip = try #require(run.events(.skip).first)
        #expect(skip.clock == .seconds(8) && skip.playhead == .seconds(3) && skip.ad?.index == 2)
        #expect(run.beacons(containing: "/pod/pod-ad-2/skip").count == 1 && run.beacons(containing: "/pod/pod-ad-2/complete").isEmpty)
        #expect(run.events(.impression).map(\.clock) == [.zero, .seconds(5), .seconds(8)])
        #expect(run.events(.complete).map { $0.ad?.index } == [1, 3])
        #expect(run.events(.rewardForfeited).count == 1 && run.events(.rewarded).isEmpty)
        #expect(run.outcomes == [.completed, .skipped, .completed])
        // No end card or close between ads: only the last ad closes the session.
        #expect(run.events(.close).map { $0.ad?.index } == [3])
    }

    @Test func theReward_isGrantedOnce_whenThePodCompletes_orAtItsShareOfTheWholePod() async throws {
        let whole = try await kit.run(cli: ["--vast", "media/pods/pod.xml", "--reward", "coins:1"])
        #expect(whole.events(.rewarded).map(\.clock) == [.seconds(15)] && whole.events(.rewarded).first?.ad?.index == 3)
        let half = try await kit.run(cli: ["--vast", "media/pods/pod.xml", "--reward", "coins:1", "--reward-at", "50%"])
        let early = try #require(half.events(.rewarded).first)
        #expect(half.events(.rewarded).count == 1)
        #expect(early.clock == .milliseconds(7500) && early.playhead == .milliseconds(2500) && early.ad?.index == 2)
        let closed = try await kit.run(cli: ["--vast", "media/pods/pod.xml", "--reward", "coins:1", "--script", "close@7"])
        #expect(closed.events(.rewardForfeited).count == 1 && closed.events(.rewarded).isEmpty)
        #expect(closed.outcomes == [.completed, .closed, .notPlayed])
        #expect(closed.beacons(containing: "/pod/pod-ad-3/").isEmpty, "a close ends the pod")
    }

    @Test func theBreaksLimits_cutThePodsEnd_with206() async throws {
        let maxAds = try await kit.run(cli: ["--vast", "media/pods/pod.xml", "--break-max-ads", "2", "--break-position", "mid"])
        #expect(maxAds.summary.outcome == .completed)
        #expect(maxAds.beacons("error").map(\.url) == ["http://127.0.0.1:8089/pod/pod-ad-3/error?code=206&seq=3&count=2&bp=2&pos=-1"])
        #expect(maxAds.outcomes == [.completed, .completed, .cut])
        #expect(maxAds.planned.allSatisfy { $0.url.contains("bp=2") }, "[BREAKPOSITION] 2 for a mid-roll")
        let maxDuration = try await kit.run(cli: ["--vast", "media/pods/pod.xml", "--break-max-duration", "12"])
        #expect(maxDuration.ads.map { $0.error?.code.rawValue ?? 0 } == [0, 0, 206])
        #expect(maxDuration.events(.impression).count == 2)
        let tooShort = try await kit.run(cli: ["--vast", "media/pods/pod.xml", "--break-min-ad-length", "6"])
        #expect(tooShort.summary.outcome == .adError, "no ad of the pod may play: the first one's 206 ends the session")
        // Each pod ad's 206, and the stand-alone ad's, tried (and too short too) in ad 1's place.
        #expect(tooShort.beacons("error").count == 4)
        #expect(tooShort.ads.map(\.substitute) == [false, true, false, false])
    }

    @Test func podFirst_playsOnlyTheFirstAd() async throws {
        let run = try await kit.run(cli: ["--vast", "media/pods/pod.xml", "--pod", "first"])
        #expect(run.summary.outcome == .completed)
        #expect(run.events(.impression).count == 1 && run.ads.isEmpty)
        #expect(run.warnings.contains { $0.contains("--pod first") })
    }

    /// `inspect` exited 4 for a pod whose second ad has no media, which a run plays (exit 0): it decides as the run
    /// does, an error only when no ad of the pod plays; the failed place is a warning and keeps its error.
    @Test(arguments: ["media/pods/pod-failing.xml", "media/pods/pod-failing-alone.xml"])
    func inspect_decidesAPodsOutcomeAsARunDoes(_ tag: String) async throws {
        let run = try await kit.run(cli: ["--vast", tag, "--dry-run"])
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", tag])
        #expect(run.summary.outcome == .completed && inspection.outcome == .completed, "\(inspection.errors)")
        #expect(inspection.pod.contains { $0.error?.code.rawValue == 401 })
        #expect(inspection.warnings.contains { $0.rule == "VPLAY-error-401" && $0.message.hasPrefix("pod ad 2 was not played: VAST 401: ") }, "\(inspection.warnings)")
    }
}
