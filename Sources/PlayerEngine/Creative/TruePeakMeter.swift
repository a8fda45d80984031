import Foundation

/// The true peak of one channel by ITU-R BS.1770-4 Annex 2: the signal oversampled four times by a polyphase
/// interpolating FIR (48 taps, 12 a phase, as the annex's example), the largest magnitude among the original and the
/// interpolated samples. Between samples a waveform can rise above any sample; this is what a DAC, or a lossy
/// encoder, will meet.
struct TruePeakMeter: Sendable {
    /// Oversampling factor and taps a phase.
    static let factor = 4, tapsPerPhase = 12
    /// The interpolation filter as one vector a tap: lane p of `coefficients[k]` is phase p's tap that meets the
    /// sample k steps after the oldest of the window (each phase summing to 1), so the four interpolated values
    /// between two samples come out of one pass over the window.
    static let coefficients: [SIMD4<Double>] = {
        let count = factor * tapsPerPhase
        let centre = Double(count - 1) / 2
        let prototype = (0..<count).map { n -> Double in
            let t = (Double(n) - centre) / Double(factor)
            let sinc = t == 0 ? 1 : sin(Double.pi * t) / (Double.pi * t)
            // Blackman window over the whole filter.
            let phase = 2 * Double.pi * Double(n) / Double(count - 1)
            return sinc * (0.42 - 0.5 * cos(phase) + 0.08 * cos(2 * phase))
        }
        // Phase p's taps, newest sample first, normalised; then reversed to oldest first.
        let phases = (0..<factor).map { phase -> [Double] in
            let taps = (0..<tapsPerPhase).map { prototype[phase + factor * $0] }
            let sum = taps.reduce(0, +)
            return taps.reversed().map { $0 / sum }
        }
        return (0..<tapsPerPhase).map { k in SIMD4(phases[0][k], phases[1][k], phases[2][k], phases[3][k]) }
    }()

    /// The most any interpolated value can exceed the largest magnitude in its window by: the largest sum of a
    /// phase's absolute taps. While every sample of the window is under `peak / gain`, no interpolated value can
    /// reach `peak`, and the filter need not run (an exact shortcut, not an estimate).
    static let gain: Double = {
        var sums = SIMD4<Double>(repeating: 0)
        for taps in coefficients { sums += SIMD4(abs(taps.x), abs(taps.y), abs(taps.z), abs(taps.w)) }
        return sums.max()
    }()

    /// The last `tapsPerPhase` samples, written twice (at `i` and `i + tapsPerPhase`) so that they always lie in one
    /// run, `history[head ..< head + tapsPerPhase]`, oldest first.
    private var history = [Double](repeating: 0, count: 2 * tapsPerPhase)
    private var head = 0
    /// Samples since the last one at or above `peak / gain` (the window holds such a sample while under `tapsPerPhase`).
    private var sinceLoud = 0
    /// The largest magnitude so far, linear.
    private(set) var peak = 0.0

    /// Takes one sample.
    @inline(__always)
    mutating func add(_ x: Double) {
        let taps = Self.tapsPerPhase
        history[head] = x
        history[head + taps] = x
        head = head + 1 == taps ? 0 : head + 1
        let magnitude = abs(x)
        if magnitude * Self.gain >= peak { sinceLoud = 0 } else { sinceLoud += 1 }
        peak = max(peak, magnitude)
        guard sinceLoud < taps else { return }
        let start = head
        var y = SIMD4<Double>(repeating: 0)
        history.withUnsafeBufferPointer { window in
            Self.coefficients.withUnsafeBufferPointer { filter in
                for k in 0..<taps { y += filter[k] * window[start + k] }
            }
        }
        let largest = max(max(abs(y.x), abs(y.y)), max(abs(y.z), abs(y.w)))
        peak = max(peak, largest)
    }
}
