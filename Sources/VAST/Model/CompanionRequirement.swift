/// The `required` attribute of `<CompanionAds>`. If the requirement cannot be met the ad is dropped with error 602.
public enum CompanionRequirement: String, Sendable, Hashable, Codable {
    /// Every companion must be shown.
    case all
    /// At least one companion must be shown.
    case any
    /// Companions are optional.
    case none
}
