/// Why a candidate ranks where it does: the rule that chose it among the candidates left at its turn.
public enum MediaChoiceReason: Sendable, Hashable {
    /// `--media-file`: by `id` (`byID`) or 1-based position; the only candidate. `warning`: why it would not have
    /// been a candidate otherwise.
    case forced(String, byID: Bool, warning: UnplayableMedia?)
    /// `--adcash-quality`: the file at `position` (0-based) of `count` sorted by bitrate, area and position.
    case adcashQuality(AdcashQuality, position: Int, count: Int)
    /// Rules 3–6: each step as it narrowed the candidates; `tieBroken` when more than one was left and MIME
    /// preference then document order decided.
    case rules([MediaRuleStep], tieBroken: Bool)

    /// The text for the file chosen (`file`, at 1-based `index`).
    func text(file: MediaFile, index: Int) -> String {
        switch self {
        case let .forced(name, byID, warning):
            "forced by --media-file \(name) (\(byID ? "id" : "index"))" + (warning.map { "; warning: \($0)" } ?? "")
        case let .adcashQuality(quality, position, count):
            "Adcash quality \(quality.rawValue): file \(position + 1) of \(count) by bitrate (\(MediaFileSelector.describe(file)))"
        case let .rules(steps, tieBroken):
            (steps.map(\.description) + (tieBroken ? ["tie broken by MIME preference then document order"] : [])).joined(separator: "; ")
                + " → #\(index) (\(MediaFileSelector.describe(file)))"
        }
    }
}
