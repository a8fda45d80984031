import Testing
@testable import AdSession
import PlayerEngine
import VAST

/// Which icons a session shows and whose tracking fires with them (`ShownIcon`), and the replay policy for their views.
@Suite struct IconPlanTests {
    static let w1 = TrackingSource.wrapper(depth: 1, adSystem: "outer", tagURL: nil)
    static let w2 = TrackingSource.wrapper(depth: 2, adSystem: "inner", tagURL: nil)

    static func icon(_ program: String?, resource: Bool, view: String) -> Icon {
        Icon(program: program, resources: resource ? [.staticResource(creativeType: "image/png", url: "https://i.example/\(view).png")] : [],
             viewTracking: ["https://t.example/\(view)"])
    }

    @Test func ofOneProgram_theIconClosestToTheInLineShows_trackingOnlyOnesFireWithIt() {
        let shown = ShownIcon.choose([
            Sourced(Self.icon("AdChoices", resource: true, view: "outer"), source: Self.w1),
            Sourced(Self.icon("adchoices", resource: false, view: "outer-tracking"), source: Self.w1),
            Sourced(Self.icon("AdChoices", resource: true, view: "inner"), source: Self.w2),
            Sourced(Self.icon(nil, resource: true, view: "anonymous"), source: Self.w2),
            Sourced(Self.icon("Other", resource: true, view: "other"), source: .inline),
        ])
        #expect(shown.map { $0.icon.value.viewTracking } == [["https://t.example/inner"], ["https://t.example/anonymous"], ["https://t.example/other"]])
        #expect(shown.first?.trackingOnly.map { $0.value.viewTracking } == [["https://t.example/outer-tracking"]],
                "the other AdChoices with a resource of its own is not shown and does not fire")
    }

    @Test func iconViews_fireAgainOnAReplay_onlyWithReplayTrackingAll() {
        for (policy, expected) in [(SessionConfiguration.ReplayTracking.all, true), (.none, false)] {
            var gate = TrackingGate(repeatTracking: .every, replayTracking: policy)
            let first = gate.fires(PlaybackEvent(name: .iconShown, playhead: .zero, clock: .zero, play: 1))
            let again = gate.fires(PlaybackEvent(name: .iconShown, playhead: .zero, clock: .seconds(11), play: 2))
            #expect(first && again == expected, "\(policy)")
        }
    }
}
