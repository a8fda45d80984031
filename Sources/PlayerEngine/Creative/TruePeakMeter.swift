import Foundation

/// The true peak of one channel by ITU-R BS.1770-4 Annex 2: the signal oversampled four times by a polyphase
/// interpolating FIR (48 taps, 12 a phase, as the annex's example), the largest magnitude among the original and the
/// interpolated samples. Between samples a waveform can rise above any sample; this is what a DAC, or a lossy
/// encoder, will meet.
struct TruePeakMeter: Sendable {
    /// Oversampling factor and taps a phase.
    static let factor = 4, tapsPerPhase = 12
    /// The interpolation filter, phase after phase, each phase's taps oldest sample first and summing to 1.
    static let coefficients: [Double] = {
        let count = factor * tapsPerPhase
        let centre = Double(count - 1) / 2
        let prototype = (0..<count).map { n -> Double in
            let t = (Double(n) - centre) / Double(factor)
            let sinc = t == 0 ? 1 : sin(Double.pi * t) / (Double.pi * t)
            // Blackman window over the whole filter.
            let phase = 2 * Double.pi * Double(n) / Double(count - 1)
            return sinc * (0.42 - 0.5 * cos(phase) + 0.08 * cos(2 * phase))
        }
        return (0..<factor).flatMap { phase in
            // Tap k of a phase meets the sample k steps back from the newest.
            let taps = (0..<tapsPerPhase).map { prototype[phase + factor * $0] }
            let sum = taps.reduce(0, +)
            return taps.reversed().map { $0 / sum }
        }
    }()

    /// The last `tapsPerPhase` samples, written twice (at `i` and `i + tapsPerPhase`) so that they always lie in one
    /// run, `history[head ..< head + tapsPerPhase]`, oldest first.
    private var history = [Double](repeating: 0, count: 2 * tapsPerPhase)
    private var head = 0
    /// The largest magnitude so far, linear.
    private(set) var peak = 0.0

    /// Takes one sample.
    @inline(__always)
    mutating func add(_ x: Double) {
        let taps = Self.tapsPerPhase
        history[head] = x
        history[head + taps] = x
        head = head + 1 == taps ? 0 : head + 1
        var largest = abs(x)
        let start = head
        history.withUnsafeBufferPointer { window in
            Self.coefficients.withUnsafeBufferPointer { filter in
                for phase in 0..<Self.factor {
                    var y = 0.0
                    let base = phase * taps
                    for k in 0..<taps { y += filter[base + k] * window[start + k] }
                    largest = max(largest, abs(y))
                }
            }
        }
        peak = max(peak, largest)
    }
}
