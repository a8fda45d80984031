import Foundation
import Testing
@testable import PlayerEngine

/// The BS.1770 meter on synthetic signals whose loudness is known by definition, and the leader runs on timed pieces.
@Suite struct LoudnessMeterTests {
    /// `seconds` of a sine at `amplitude` (linear) and `frequency`, in each of `channels` channels.
    static func sine(_ amplitude: Double, frequency: Double = 997, rate: Int = 48000, seconds: Double, channels: Int = 2, phase: Double = 0) -> [[Double]] {
        let count = Int(Double(rate) * seconds)
        let plane = (0..<count).map { amplitude * sin(2 * Double.pi * frequency * Double($0) / Double(rate) + phase) }
        return Array(repeating: plane, count: channels)
    }

    static func measure(_ planes: [[Double]], rate: Int = 48000, weights: [Double]? = nil, chunk: Int = 1024) -> LoudnessMeter.Result {
        var meter = LoudnessMeter(rate: rate, weights: weights ?? planes.map { _ in 1 })
        var start = 0
        while start < planes[0].count {
            let end = min(planes[0].count, start + chunk)
            meter.add(planes: planes.map { Array($0[start..<end]) }, count: end - start)
            start = end
        }
        return meter.result
    }

    @Test func aFullScale997HzSineInOneChannel_reads_minus3_01LKFS() throws {
        // BS.1770-4 §2.1: the K-weighting's offset makes this signal read -3.01 LKFS.
        let result = Self.measure(Self.sine(1, seconds: 5, channels: 1))
        let integrated = try #require(result.integrated)
        #expect(abs(integrated - -3.01) < 0.05, "\(integrated)")
        #expect(abs(try #require(result.samplePeak)) < 0.01)
    }

    @Test func theSameSineReadsAlikeAtEveryRate() throws {
        // The K-weighting is warped to each rate, so the loudness does not depend on it.
        for rate in [44100, 48000, 96000] {
            let integrated = try #require(Self.measure(Self.sine(0.0631, rate: rate, seconds: 4), rate: rate).integrated)
            #expect(abs(integrated - -24.0) < 0.05, "\(rate): \(integrated)")
        }
    }

    @Test func theRelativeGateLeavesOutTheQuietPart() throws {
        // 10 s at -20 dBFS then 10 s at -60 dBFS: the quiet part is 40 LU down, under the -10 LU relative gate, so
        // the integrated loudness is the loud part's alone (an ungated mean would be 3 dB lower).
        let loud = Self.sine(0.1, seconds: 10), quiet = Self.sine(0.001, seconds: 10)
        let both = zip(loud, quiet).map { $0 + $1 }
        let alone = try #require(Self.measure(loud).integrated)
        let gated = try #require(Self.measure(both).integrated)
        #expect(abs(gated - alone) < 0.1, "\(gated) vs \(alone)")
        #expect(try #require(Self.measure(both).range) > 0, "the range sees the two levels")
    }

    @Test func silenceHasNoLoudness_andUnder400msNoBlock() {
        #expect(Self.measure(Self.sine(0, seconds: 3)).integrated == nil)
        #expect(Self.measure(Self.sine(0, seconds: 3)).truePeak == nil)
        #expect(Self.measure(Self.sine(0.5, seconds: 0.3)).integrated == nil)
        #expect(Self.measure(Self.sine(0.5, seconds: 2)).range == nil, "no 3 s block")
    }

    @Test func thePeakBetweenSamples_isFoundByOversampling() throws {
        // A sine at a quarter of the rate, sampled 45° off its crests: every sample is at ±0.707 (-3 dBFS) while
        // the waveform reaches 1.0 between them. The sample peak misses it; the true peak finds it.
        let result = Self.measure(Self.sine(1, frequency: 12000, seconds: 1, channels: 1, phase: Double.pi / 4))
        #expect(abs(try #require(result.samplePeak) - -3.01) < 0.05)
        #expect(abs(try #require(result.truePeak)) < 0.2, "\(result.truePeak ?? 0)")
    }

    @Test func channelWeights_leaveOutTheLFE_andLiftTheSurrounds() {
        // FL, FR, FC, LFE, BL, BR (5.1)
        #expect(LoudnessMeter.weights(masks: [0x1, 0x2, 0x4, 0x8, 0x10, 0x20]) == [1, 1, 1, 0, 1.41, 1.41])
    }

    @Test func leaderRuns_atTheStartAndTheEnd() {
        var run = LeaderRun()
        // Frames of 0.5 s: holds, holds, breaks, holds.
        run.add(start: 0, end: 0.5, holdsUntil: 0.5, holdsFrom: 0)
        run.add(start: 0.5, end: 1, holdsUntil: 1, holdsFrom: 0.5)
        run.add(start: 1, end: 1.5, holdsUntil: nil, holdsFrom: nil)
        run.add(start: 1.5, end: 2, holdsUntil: 2, holdsFrom: 1.5)
        #expect(run.atStart == 1 && run.atEnd == 0.5 && !run.throughout)
        // A piece that holds in part: until 0.2 at its start, from 0.9 at its end.
        var sound = LeaderRun()
        sound.add(start: 0, end: 1, holdsUntil: 0.2, holdsFrom: 0.9)
        #expect(abs(sound.atStart - 0.2) < 1e-9 && abs(sound.atEnd - 0.1) < 1e-9)
        var all = LeaderRun()
        all.add(start: 0, end: 1, holdsUntil: 1, holdsFrom: 0)
        #expect(all.throughout && all.atStart == 1 && all.atEnd == 1)
    }
}
