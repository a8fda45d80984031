import Foundation

/// Programme loudness by ITU-R BS.1770-4 and EBU R128 / Tech 3341–3342, in one pass over the samples: integrated
/// loudness (400 ms blocks every 100 ms, gated at −70 LUFS and 10 LU below the ungated mean), loudness range (3 s
/// short-term values every 100 ms, gated at −70 LUFS and 20 LU below, the 10th to the 95th percentile), true peak
/// (``TruePeakMeter``) and sample peak. Keeps one energy a 100 ms step (a few kilobytes a minute), not the samples.
public struct LoudnessMeter: Sendable {
    /// What the meter measured.
    public struct Result: Sendable, Equatable, Codable {
        /// Integrated loudness, LUFS (= LKFS); nil when no 400 ms block passes the gates (silence, or under 400 ms).
        public var integrated: Double?
        /// Loudness range, LU; nil under 3 s of audio.
        public var range: Double?
        /// True peak, dBTP (dB relative to full scale, oversampled); nil for digital silence.
        public var truePeak: Double?
        /// Sample peak, dBFS; nil for digital silence.
        public var samplePeak: Double?
    }

    /// BS.1770's offset: a 997 Hz sine at 0 dBFS in one front channel reads −3.01 LKFS.
    static let offset = -0.691
    static let absoluteGate = -70.0

    private let weights: [Double]
    private var shelves: [Biquad]
    private var highPasses: [Biquad]
    private var peaks: [TruePeakMeter]
    private var samplePeak = 0.0
    /// Samples in a 100 ms step.
    private let stepLength: Int
    private var stepFill = 0
    private var stepSums: [Double]
    /// The channel-weighted mean square of each complete 100 ms step.
    private var steps: [Double] = []

    /// A meter for `weights.count` channels at `rate` samples a second; `weights` are BS.1770's channel weights (1 for
    /// left, right and centre, 1.41 for the surrounds, 0 for LFE).
    public init(rate: Int, weights: [Double]) {
        self.weights = weights
        shelves = weights.map { _ in .kWeightingShelf(rate: Double(rate)) }
        highPasses = weights.map { _ in .kWeightingHighPass(rate: Double(rate)) }
        peaks = weights.map { _ in TruePeakMeter() }
        stepLength = max(1, Int((Double(rate) / 10).rounded()))
        stepSums = weights.map { _ in 0 }
    }

    /// Takes `count` samples of every channel: `planes[c][i]` is sample `i` of channel `c`.
    public mutating func add(planes: [[Double]], count: Int) {
        var start = 0
        while start < count {
            let end = min(count, start + stepLength - stepFill)
            for channel in weights.indices {
                var shelf = shelves[channel], highPass = highPasses[channel], peak = peaks[channel]
                var sum = stepSums[channel], largest = samplePeak
                planes[channel].withUnsafeBufferPointer { samples in
                    for i in start..<end {
                        let x = samples[i]
                        let y = highPass.process(shelf.process(x))
                        sum += y * y
                        largest = max(largest, abs(x))
                        peak.add(x)
                    }
                }
                shelves[channel] = shelf; highPasses[channel] = highPass; peaks[channel] = peak
                stepSums[channel] = sum; samplePeak = largest
            }
            stepFill += end - start
            start = end
            if stepFill == stepLength {
                var energy = 0.0
                for channel in weights.indices { energy += weights[channel] * stepSums[channel] / Double(stepLength) }
                steps.append(energy)
                stepSums = weights.map { _ in 0 }
                stepFill = 0
            }
        }
    }

    /// The measurement of everything taken so far (a partial last 100 ms step is left out, as in EBU Tech 3341).
    public var result: Result {
        let truePeak = peaks.map(\.peak).max() ?? 0
        return Result(integrated: Self.integrated(Self.blocks(steps, length: 4)),
                      range: Self.range(Self.blocks(steps, length: 30)),
                      truePeak: truePeak > 0 ? 20 * log10(truePeak) : nil,
                      samplePeak: samplePeak > 0 ? 20 * log10(samplePeak) : nil)
    }

    /// Loudness of a mean square, LUFS.
    static func loudness(_ energy: Double) -> Double { offset + 10 * log10(energy) }

    /// The mean squares of the blocks of `length` steps that end at each step.
    static func blocks(_ steps: [Double], length: Int) -> [Double] {
        guard steps.count >= length else { return [] }
        var blocks: [Double] = []
        blocks.reserveCapacity(steps.count - length + 1)
        var sum = steps[0..<length].reduce(0, +)
        blocks.append(sum / Double(length))
        for end in length..<steps.count {
            sum += steps[end] - steps[end - length]
            blocks.append(max(0, sum) / Double(length))
        }
        return blocks
    }

    /// Gated integrated loudness of 400 ms blocks (BS.1770-4 §2.8).
    static func integrated(_ blocks: [Double]) -> Double? {
        let absolute = blocks.filter { $0 > 0 && loudness($0) > absoluteGate }
        guard !absolute.isEmpty else { return nil }
        let relative = loudness(absolute.reduce(0, +) / Double(absolute.count)) - 10
        let gated = absolute.filter { loudness($0) > relative }
        guard !gated.isEmpty else { return nil }
        return loudness(gated.reduce(0, +) / Double(gated.count))
    }

    /// Loudness range of 3 s short-term blocks (EBU Tech 3342).
    static func range(_ blocks: [Double]) -> Double? {
        guard !blocks.isEmpty else { return nil }
        let absolute = blocks.filter { $0 > 0 && loudness($0) > absoluteGate }
        guard !absolute.isEmpty else { return 0 }
        let relative = loudness(absolute.reduce(0, +) / Double(absolute.count)) - 20
        let values = absolute.map(loudness).filter { $0 > relative }.sorted()
        guard !values.isEmpty else { return 0 }
        func percentile(_ p: Double) -> Double { values[min(values.count - 1, Int((p * Double(values.count - 1)).rounded()))] }
        return percentile(0.95) - percentile(0.10)
    }

    /// BS.1770's weight for each channel of a layout given as FFmpeg's channel masks (`AV_CH_*`), in order: 0 for the
    /// LFE, 1.41 for the surround and back channels, 1 for the others (a mono channel counts as one front channel).
    public static func weights(masks: [UInt64]) -> [Double] {
        let lfe: UInt64 = 0x8 | 0x8_0000_0000 // LOW_FREQUENCY, LOW_FREQUENCY_2
        let surround: UInt64 = 0x10 | 0x20 | 0x100 | 0x200 | 0x400 // BACK_LEFT, BACK_RIGHT, BACK_CENTER, SIDE_LEFT, SIDE_RIGHT
        return masks.map { mask in mask & lfe != 0 ? 0 : mask & surround != 0 ? 1.41 : 1 }
    }
}
