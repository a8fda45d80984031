import Findings

/// A problem found while parsing or resolving that did not stop it. Collected, never thrown.
public struct VASTWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// A stable identifier of the kind of problem.
    public var kind: Kind
    /// The ID of the rule it breaks (`Rule.id`: `VAST-2.0-inline-adsystem`, …).
    public var rule: String
    /// Human-readable detail.
    public var message: String
    /// Where: a slash path of element names such as `VAST/Ad[1]/InLine/Creatives/Creative[1]/Linear`.
    public var path: String?

    public init(_ kind: Kind, _ rule: Rule, _ message: String, path: String? = nil) {
        self.kind = kind
        self.rule = rule.id
        self.message = message
        self.path = path
    }

    /// The warning as a finding of its rule.
    public var finding: Finding { Finding(ruleID: rule, message, path: path) }

    /// `RULE at PATH: message`.
    public var description: String { finding.description }

    /// Stable kinds of warnings.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A `<Tracking event>` name no VAST version defines (e.g. `first-quartile`).
        case unknownTrackingEvent
        /// A `notUsed` tracking event (VAST 4.2/4.3, missing from the 4.1/4.2 XSD).
        case notUsedEvent
        /// A required or recommended element or attribute is missing: what a validator (the IAB XSDs, the VAST 4.3
        /// text, vast-client-js's `requiredValues`) names — AdSystem, AdTitle, Impression, Creatives, Duration,
        /// MediaFile/Mezzanine attributes, Tracking `event`, Category `authority`, Pricing `model`/`currency`,
        /// UniversalAdId, Verification `vendor` and resources, Companion/NonLinear size and resource… — each only
        /// from the VAST version that requires it (AdServingId 4.1, UniversalAdId 4.0…).
        case missingRecommended
        /// A `[MACRO]` in a URL that is not in the VAST 4.x macro list.
        case unknownMacro
        /// A time, offset or number that does not parse.
        case invalidValue
        /// VAST version 1.x on a `<VAST>` root, or a missing/unknown version attribute.
        case version
        /// An `<Ad>` that was skipped (e.g. neither InLine nor Wrapper: error 101 for that ad).
        case invalidAd
        /// A wrapper-resolution note (e.g. ads of a wrapper's target dropped because `allowMultipleAds` is false).
        case resolution
    }
}
