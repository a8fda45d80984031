import Primitives
import Testing
@testable import PlayerEngine

/// Icons (VAST 3.0+, e.g. AdChoices) on the pure state machine: shown at their offset for their duration of played
/// video, exactly, and clickable while shown (issue 15 item 2).
@Suite struct IconPlaybackTests: MachineFixture {
    @Test func iconAtZero_showsWithTheFirstFrame_afterStart() {
        var rules = PlaybackRules(duration: .seconds(10))
        rules.icons = [.init()]
        var m = AdPlayback(rules: rules, duration: .seconds(10))
        let events = m.begin(at: .zero)
        #expect(names(events) == [.loaded, .impression, .creativeView, .start, .iconShown])
        #expect(events.last?.icon == 0 && events.last?.playhead == .zero)
    }

    @Test func iconShowsAtItsOffset_andGoesAfterItsDuration_ofPlayedTime() {
        var m = machine { $0.icons = [.init(offset: s(3), duration: s(2))] }
        // Paused from 4 to 9: the icon's two seconds are of played video, so it goes at playhead 5 = clock 10.
        var events = m.handle(.action(.pause), at: s(4))
        events += m.handle(.action(.resume), at: s(9))
        events += m.advance(to: s(20))
        let shown = events.first { $0.name == .iconShown }, hidden = events.first { $0.name == .iconHidden }
        #expect(shown?.playhead == s(3) && shown?.clock == s(3))
        #expect(hidden?.playhead == s(5) && hidden?.clock == s(10) && hidden?.icon == 0)
        #expect(events.filter { $0.name == .iconShown }.count == 1)
    }

    @Test func iconAtOrAfterTheEnd_neverShows_andOneOutlastingTheVideo_goesSilently() {
        var m = machine { $0.icons = [.init(offset: s(10)), .init(offset: s(8), duration: s(5))] }
        let events = m.advance(to: s(12))
        #expect(events.filter { $0.name == .iconShown }.map(\.icon) == [1])
        #expect(!events.contains { $0.name == .iconHidden })
    }

    @Test func iconClick_opensItsClickThrough_andSuppressesUntilItCloses() {
        var m = machine { $0.icons = [.init(offset: s(1), duration: s(3), hasClickThrough: true), .init(offset: s(2))] }
        _ = m.advance(to: s(2))
        var events = m.handle(.action(.iconClick), at: s(2.4))
        #expect(names(events) == [.iconClick, .pause])
        #expect(events.first?.icon == 0 && events.first?.detail == .clickThrough(opened: true))
        #expect(events.last?.detail == .suppression(.clickThrough))
        events = m.handle(.action(.clickthroughClose), at: s(6))
        #expect(names(events) == [.clickThroughClose, .resume])
        // Icon 0 goes at playhead 4 (clock 7.6); a click then lands on icon 1, which has no click-through.
        events = m.handle(.action(.iconClick), at: s(8))
        #expect(names(events) == [.firstQuartile, .iconHidden, .iconClick] && events.last?.icon == 1)
        #expect(events[1].clock == s(7.6) && events[1].playhead == s(4))
        #expect(events.last?.detail == .clickThrough(opened: false) && m.phase == .playing)
    }

    @Test func iconClick_withoutAnIconShowing_isRejected() {
        var m = machine { $0.icons = [.init(offset: s(5))] }
        let early = m.handle(.action(.iconClick), at: s(1))
        #expect(early.map(\.detail) == [.refused(step: "iconClick", .noIconShowing)])
        _ = m.advance(to: s(10))
        let onTheEndCard = m.handle(.action(.iconClick), at: s(11))
        #expect(onTheEndCard.map(\.detail) == [.refused(step: "iconClick", .noVideoPlaying)])
    }

    @Test func replay_showsTheIconsAgain() {
        var m = machine { $0.icons = [.init()] }
        _ = m.advance(to: s(10))
        let events = m.handle(.action(.replay), at: s(11))
        #expect(names(events) == [.rewind, .impression, .creativeView, .start, .iconShown])
        #expect(events.last?.play == 2)
    }
}
