import Primitives
import Testing
@testable import PlayerEngine

/// The pure boundary logic, tested with plain timestamps.
@Suite struct MilestonesTests {
    @Test func quartiles_tenSeconds_areAtExactly25_50_75_100Percent() {
        let milestones = Milestones(duration: .seconds(10))
        #expect(milestones.boundaries.map(\.at) == [.milliseconds(2500), .seconds(5), .milliseconds(7500), .seconds(10)])
        #expect(milestones.boundaries.map(\.name) == [.firstQuartile, .midpoint, .thirdQuartile, .complete])
    }

    @Test func quartiles_oddDuration_areExactNotRoundedToTheSecondOrCentisecond() {
        // The IAB sample: 15.162622 s. The peer rounds to 0.01 s, a Swift peer to whole seconds (ceil).
        let milestones = Milestones(duration: .microseconds(15_162_622))
        #expect(milestones.boundaries[0].at == .nanoseconds(3_790_655_500))
        #expect(milestones.boundaries[1].at == .microseconds(7_581_311))
    }

    @Test func advance_exactlyOnABoundary_firesIt() {
        var milestones = Milestones(duration: .seconds(10))
        #expect(milestones.advance(to: .milliseconds(2499)).isEmpty)
        #expect(milestones.advance(to: .milliseconds(2500)).map(\.name) == [.firstQuartile])
    }

    @Test func advance_eachBoundaryFiresOnlyOnce() {
        var milestones = Milestones(duration: .seconds(10))
        #expect(milestones.advance(to: .seconds(3)).map(\.name) == [.firstQuartile])
        #expect(milestones.advance(to: .seconds(3)).isEmpty)
        #expect(milestones.advance(to: .seconds(4)).isEmpty)
    }

    @Test func advance_jumpPastSeveral_firesAllInOrder() {
        var milestones = Milestones(duration: .seconds(10), progressOffsets: [.seconds(6)])
        #expect(milestones.advance(to: .seconds(8)).map(\.name) == [.firstQuartile, .midpoint, .progress, .thirdQuartile])
        #expect(milestones.next == .seconds(10))
    }

    @Test func progress_offsetsOutsideTheAdOrRepeated_areScheduledOnce() {
        let milestones = Milestones(duration: .seconds(10), progressOffsets: [.seconds(5), .seconds(5), .seconds(11), .seconds(-1)])
        #expect(milestones.boundaries.filter { $0.name == .progress }.map(\.at) == [.seconds(5)])
        // At the same playhead the progress beacon comes before the quartile.
        #expect(milestones.boundaries.map(\.name) == [.firstQuartile, .progress, .midpoint, .thirdQuartile, .complete])
    }

    @Test func progress_atZero_firesAtTheStart() {
        var milestones = Milestones(duration: .seconds(10), progressOffsets: [.zero])
        #expect(milestones.advance(to: .zero).map(\.name) == [.progress])
    }
}

/// `PlaybackEvent.Name.ordinal`: each name's place in `allCases`, what tables by event are indexed by and what a name
/// hashes; the tracking gate keeps one bit per name in a 64-bit word.
@Suite struct EventNameOrdinalTests {
    @Test func ordinal_isThePlaceInAllCases_andFitsABitPerName() {
        let names = PlaybackEvent.Name.allCases
        #expect(names.enumerated().allSatisfy { $0.offset == $0.element.ordinal })
        #expect(names.count <= 64)
    }

    @Test func namesHashByCase_soEveryNameIsItsOwnKey() {
        var counts: [PlaybackEvent.Name: Int] = [:]
        for name in PlaybackEvent.Name.allCases + PlaybackEvent.Name.allCases { counts[name, default: 0] += 1 }
        #expect(counts.count == PlaybackEvent.Name.allCases.count && counts.values.allSatisfy { $0 == 2 })
        var hasher = Hasher(), other = Hasher()
        PlaybackEvent.Name.midpoint.hash(into: &hasher)
        other.combine(PlaybackEvent.Name.midpoint.ordinal)
        #expect(hasher.finalize() == other.finalize())
    }
}
