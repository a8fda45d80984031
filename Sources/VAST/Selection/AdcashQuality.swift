/// The quality ladder of the Adcash rewarded-video SDK (thesis seed 000, Table 5), used as an optional media
/// selection rule: from how long the previous video download took and at which quality, choose the next quality.
/// `low`/`mid`/`high` map to the lowest/middle/highest bitrate playable file.
public enum AdcashQuality: String, Sendable, Hashable, Codable, CaseIterable {
    case low, mid, high

    /// Table 5, exactly (boundaries included as the table writes them):
    ///
    /// | last quality | download time x (s) | next |
    /// |---|---|---|
    /// | low  | x ≤ 2 | high |
    /// | low  | 2 < x ≤ 3 | mid |
    /// | low  | x > 3 | low |
    /// | mid  | x ≤ 3 | high |
    /// | mid  | 3 < x ≤ 5 | mid |
    /// | mid  | x > 5 | low |
    /// | high | x < 5 | high |
    /// | high | 5 ≤ x < 10 | mid |
    /// | high | x ≥ 10 | low |
    /// | none (NA) | – | low |
    ///
    /// - Parameters:
    ///   - lastQuality: the quality downloaded last time; `nil` when there was none (NA).
    ///   - downloadSeconds: how long that download took, in seconds; `nil` (or not finite) is NA.
    public static func next(after lastQuality: AdcashQuality?, downloadSeconds: Double?) -> AdcashQuality {
        guard let lastQuality, let x = downloadSeconds, x.isFinite, x >= 0 else { return .low }
        switch lastQuality {
        case .low: return x <= 2 ? .high : (x <= 3 ? .mid : .low)
        case .mid: return x <= 3 ? .high : (x <= 5 ? .mid : .low)
        case .high: return x < 5 ? .high : (x < 10 ? .mid : .low)
        }
    }
}
