import Foundation
import Testing
@testable import AdSession
import VAST

/// The page a click opens is expanded from its own cache-buster sequence: a click never shifts the values the
/// session's beacons carry, so a run with clicks stays comparable to one without.
@Suite struct LandingPageTests {
    @Test func landingPages_doNotShiftTheBeaconsCacheBusters() {
        let target = TrackingPlan.Target(event: "complete", url: "http://t.example/c?cb=[CACHEBUSTING]", source: .inline)
        var plain = BeaconPlanner(configuration: SessionConfiguration(tag: "t.xml"), seed: 11, wallStart: 0)
        var clicked = BeaconPlanner(configuration: SessionConfiguration(tag: "t.xml"), seed: 11, wallStart: 0)
        let first = plain.plan(target, playhead: .seconds(1), clock: .seconds(1)).0.url
        #expect(first == clicked.plan(target, playhead: .seconds(1), clock: .seconds(1)).0.url)
        let page = clicked.landingPage(" https://land.example/p?at=[ADPLAYHEAD]&cb=[CACHEBUSTING] ", playhead: .milliseconds(2500), clock: .seconds(3))
        #expect(page.hasPrefix("https://land.example/p?at=00%3A00%3A02.500&cb="), "\(page)")
        #expect(!page.contains("[CACHEBUSTING]"))
        #expect(plain.plan(target, playhead: .seconds(2), clock: .seconds(2)).0.url
                == clicked.plan(target, playhead: .seconds(2), clock: .seconds(2)).0.url)
    }
}
