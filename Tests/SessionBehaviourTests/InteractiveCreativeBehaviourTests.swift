import AdSession
import Foundation
import PlayerEngine
import Testing
import TestSupport
import TrackingBeacons

/// Interactive creatives vplay does not run (issue 44, item 1). VAST 4.3 §3.9.3: a player that cannot execute an
/// `InteractiveCreativeFile` fires its Error URLs with 409 and may play the MediaFile; SIMID 1.2 §5: with
/// `variableDuration="true"` it must not render the ad (`--variable-duration refuse`, the default) and a pod plays its
/// next ad. On `media/pods/pod-simid.xml` (ad 1 a SIMID creative, ad 2 one with variableDuration, ad 3 plain) and on
/// tags in memory.
@Suite struct InteractiveCreativeBehaviourTests {
    let kit = SessionKit()

    static func error(_ ad: Int, _ seq: Int, count: Int) -> String {
        "http://127.0.0.1:8089/pod/pod-ad-\(ad)/error?code=409&seq=\(seq)&count=\(count)&bp=4&pos=-1"
    }

    @Test func aSIMIDCreative_fires409ThenPlaysItsMedia_andVariableDurationIsRefused_thePodMovingOn() async throws {
        let run = try await kit.run(cli: ["--vast", "media/pods/pod-simid.xml"])
        #expect(run.summary.outcome == .completed)
        #expect(run.outcomes == [.completed, .failed, .completed])
        #expect(run.ads.map { "\($0.ad.index) \($0.ad.id ?? "") \($0.error?.code.rawValue ?? 0)" } == ["1 pod-ad-1 0", "2 pod-ad-2 409", "3 pod-ad-3 0"])
        #expect(Set(run.beacons("error").map(\.url)) == [Self.error(1, 1, count: 1), Self.error(2, 2, count: 1)])
        #expect(run.events(.impression).map { $0.ad?.id } == ["pod-ad-1", "pod-ad-3"])
        #expect(run.events(.complete).map { $0.ad?.id } == ["pod-ad-1", "pod-ad-3"])
        // Ad 1's 409 goes out before its impression: the interactive unit is given up before the ad shows.
        let order = run.planned.map(\.url)
        let error1 = try #require(order.firstIndex(of: Self.error(1, 1, count: 1)))
        let impression1 = try #require(order.firstIndex { $0.contains("/pod/pod-ad-1/impression") })
        #expect(error1 < impression1)
        #expect(run.warnings.contains { $0.hasPrefix("VPLAY-interactive-not-executed") && $0.contains("SIMID") }, "\(run.warnings)")
        let refused = try #require(run.ads.first { $0.ad.index == 2 }?.error?.message)
        #expect(refused.contains("variableDuration=\"true\"") && refused.contains("SIMID 1.2 §5"), "\(refused)")
    }

    @Test func playMedia_playsTheVariableDurationAdsMediaToo_after409() async throws {
        let run = try await kit.run(cli: ["--vast", "media/pods/pod-simid.xml", "--variable-duration", "play-media"])
        #expect(run.outcomes == [.completed, .completed, .completed])
        #expect(run.beacons("error").map(\.url).sorted() == [Self.error(1, 1, count: 1), Self.error(2, 2, count: 2)])
        #expect(run.events(.complete).map { $0.ad?.id } == ["pod-ad-1", "pod-ad-2", "pod-ad-3"])
        #expect(run.warnings.filter { $0.hasPrefix("VPLAY-interactive-not-executed") }.count == 2, "\(run.warnings)")
    }

    /// An InteractiveCreativeFile and no MediaFile: nothing can play; 409 to every Error URL of the chain, wrapper
    /// and inline, saying why; no impression.
    @Test func anInteractiveOnlyLinear_fails409ToTheWholeChain_sayingWhy() async throws {
        var kit = kit
        kit.tag("https://ads.vplay.test/wrapper.xml", """
            <VAST version="4.2"><Ad id="w"><Wrapper><AdSystem>w</AdSystem>
              <VASTAdTagURI>https://ads.vplay.test/inline.xml</VASTAdTagURI>
              <Impression>https://t.vplay.test/w/impression</Impression><Error>https://t.vplay.test/w/error?code=[ERRORCODE]</Error>
            </Wrapper></Ad></VAST>
            """)
        kit.tag("https://ads.vplay.test/inline.xml", """
            <VAST version="4.2"><Ad id="simid-only"><InLine><AdSystem>s</AdSystem><AdTitle>s</AdTitle>
              <Impression>https://t.vplay.test/i/impression</Impression><Error>https://t.vplay.test/i/error?code=[ERRORCODE]</Error>
              <Creatives><Creative><Linear><Duration>00:00:05</Duration><MediaFiles>
                <InteractiveCreativeFile type="text/html" apiFramework="SIMID">https://creatives.vplay.test/simid/index.html</InteractiveCreativeFile>
              </MediaFiles></Linear></Creative></Creatives>
            </InLine></Ad></VAST>
            """)
        let run = await kit.run(kit.configuration("https://ads.vplay.test/wrapper.xml"))
        #expect(run.summary.outcome != .completed && run.events(.impression).isEmpty)
        #expect(run.beacons("error").map(\.url).sorted() == ["https://t.vplay.test/i/error?code=409", "https://t.vplay.test/w/error?code=409"])
        let error = try #require(run.errors.first)
        #expect(error.code.rawValue == 409 && error.message.contains("only an InteractiveCreativeFile (SIMID)"), "\(error.message)")
    }

    /// `inspect` says which happened to each ad, under each policy, as a run decides it.
    @Test func inspect_saysWhichHappened() async throws {
        let refused = try await kit.inspect(cli: ["inspect", "--vast", "media/pods/pod-simid.xml"])
        #expect(refused.pod.map { $0.error?.code.rawValue } == [nil, 409, nil])
        #expect(refused.warnings.contains { $0.rule == "VPLAY-interactive-not-executed" }, "\(refused.warnings)")
        #expect(refused.warnings.contains { $0.rule == "VPLAY-error-409" && $0.message.contains("variableDuration") }, "\(refused.warnings)")
        let played = try await kit.inspect(cli: ["inspect", "--vast", "media/pods/pod-simid.xml", "--variable-duration", "play-media"])
        #expect(played.pod.map { $0.error?.code.rawValue } == [nil, nil, nil])
        #expect(played.warnings.filter { $0.rule == "VPLAY-interactive-not-executed" }.count == 2, "\(played.warnings)")
    }

    /// A fleet of the SIMID pod: each session fires both 409s, and the oracle expects them.
    @Test func aFleet_expectsThe409sItSends() async throws {
        let (result, sent) = try await kit.fleet(cli: ["fleet", "--vast", "media/pods/pod-simid.xml", "--sessions", "20", "--seed", "2", "--mix", "complete:1"])
        let report = try result.get()
        FleetOracleBehaviourTests.expectEveryBeaconCountedOnce(report, sent: sent)
        #expect(sent.filter { $0.contains("/error?code=409&") }.count == 40)
    }
}
