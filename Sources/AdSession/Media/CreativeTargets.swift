import Foundation

/// What creative QA measures the media against (`vplay lint --loudness`, `--max-true-peak`): an integrated loudness
/// target with its tolerance, and a true-peak ceiling.
public struct CreativeTargets: Sendable, Equatable {
    /// The target, LUFS (= LKFS), and how far either side of it passes, LU.
    public var loudness: Double, tolerance: Double
    /// The highest true peak that passes, dBTP.
    public var maxTruePeak: Double
    /// How the target was named (`ATSC A/85`, `EBU R128`, `-16 LUFS ±1`), for the findings.
    public var name: String
    /// Measurements shared by the tags of one call (a clip many tags play is decoded once); nil: each decodes.
    /// Not part of the targets' equality.
    public var cache: CreativeCache?

    public static func == (lhs: CreativeTargets, rhs: CreativeTargets) -> Bool {
        (lhs.loudness, lhs.tolerance, lhs.maxTruePeak, lhs.name) == (rhs.loudness, rhs.tolerance, rhs.maxTruePeak, rhs.name)
    }

    /// ATSC A/85 (US broadcast, the IAB guidelines' first choice): -24 LKFS ±2.
    public static let atsc = CreativeTargets(loudness: -24, tolerance: 2, maxTruePeak: -6, name: "ATSC A/85")
    /// EBU R128 (European broadcast): -23 LUFS ±1.
    public static let ebu = CreativeTargets(loudness: -23, tolerance: 1, maxTruePeak: -6, name: "EBU R128")

    public init(loudness: Double, tolerance: Double, maxTruePeak: Double, name: String) {
        self.loudness = loudness
        self.tolerance = tolerance
        self.maxTruePeak = maxTruePeak
        self.name = name
    }

    /// `atsc`, `ebu`, or a target in LUFS with its tolerance in LU: `-16±1`, `-16+-1`, `-16:1`.
    /// - Throws: a message naming the accepted forms.
    public static func loudness(_ text: String, maxTruePeak: Double = -6) throws(CreativeTargetError) -> CreativeTargets {
        switch text.lowercased() {
        case "atsc": return CreativeTargets(loudness: -24, tolerance: 2, maxTruePeak: maxTruePeak, name: atsc.name)
        case "ebu": return CreativeTargets(loudness: -23, tolerance: 1, maxTruePeak: maxTruePeak, name: ebu.name)
        default: break
        }
        for separator in ["±", "+-", ":"] {
            let parts = text.components(separatedBy: separator)
            guard parts.count == 2 else { continue }
            guard let target = Double(parts[0].trimmingCharacters(in: .whitespaces)), let tolerance = Double(parts[1].trimmingCharacters(in: .whitespaces)),
                  (-70.0...0).contains(target), (0.0...20).contains(tolerance) else { break }
            return CreativeTargets(loudness: target, tolerance: tolerance, maxTruePeak: maxTruePeak,
                                   name: "\(Self.number(target)) LUFS ±\(Self.number(tolerance))")
        }
        throw CreativeTargetError(message: "--loudness \(text): give atsc (-24 LKFS ±2), ebu (-23 LUFS ±1) or LUFS±LU such as -16+-1 (a target from -70 to 0, a tolerance from 0 to 20)")
    }

    /// A figure with at most one decimal, as findings print it.
    static func number(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e12 else { return "\(value)" }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }
}
