import Primitives
import Testing
@testable import PlayerEngine

/// Network stalls on the pure state machine: the clock runs, the playhead holds, no boundary crosses, and a user's
/// pause and resume still go on top (issue 16).
@Suite struct BufferingTests: MachineFixture {
    @Test func stall_holdsThePlayhead_andDelaysTheQuartile_byItsLength() {
        var m = machine()
        var events = m.advance(to: s(2))
        events += m.startBuffering(at: s(2))
        #expect(m.nextDeadline() == nil, "nothing falls due while stalled")
        #expect(m.playhead(at: s(4)) == s(2))
        events += m.finishBuffering(at: s(5))
        events += m.advance(to: s(6))
        #expect(names(events) == [.bufferStart, .bufferFinish, .firstQuartile])
        let quartile = events.last!
        #expect(quartile.playhead == s(2.5) && quartile.clock == s(5.5))
        #expect(events.first?.playhead == s(2) && events[1].playhead == s(2))
    }

    @Test func pauseDuringAStall_isStillAPause_andResumeComesWhenTheUserResumes() {
        var m = machine()
        _ = m.startBuffering(at: s(1))
        let pause = m.handle(.action(.pause), at: s(2))
        #expect(names(pause) == [.pause] && pause.first?.detail == .suppression(.user))
        #expect(names(m.finishBuffering(at: s(3))) == [.bufferFinish])
        #expect(m.playhead(at: s(4)) == s(1), "still paused by the user")
        #expect(names(m.handle(.action(.resume), at: s(5))) == [.resume])
        #expect(m.playhead(at: s(6)) == s(2))
    }

    @Test func skipDuringAStall_endsIt_andTheEndCardShows() {
        var m = machine { $0.skipOffset = s(1); $0.hasEndCard = true }
        _ = m.advance(to: s(1.5))
        _ = m.startBuffering(at: s(1.5))
        let events = m.handle(.action(.skip), at: s(3))
        #expect(names(events).contains(.skip) && names(events).contains(.endCardShown))
        #expect(!m.buffering && m.phase == .endCard)
        #expect(events.first { $0.name == .skip }?.playhead == s(1.5))
    }

    @Test func inputRunningOutWhileStalled_abandonsSayingWhy() {
        var m = machine()
        _ = m.startBuffering(at: s(1))
        let events = m.finish(at: s(9))
        #expect(events.first { $0.name == .abandoned }?.detail == .abandoned(.buffering))
        #expect(m.ending == .abandoned)
    }
}
