import Findings

/// The rules `vplay audit` judges a device's capture by: each check of `BeaconAudit` is a finding of one of them, so
/// a CI job that audits captures gates on the same IDs as one that lints tags.
public extension Rule {
    static let auditMissing = Rule("VPLAY-audit-missing", .error, spec: "VAST 4.3 §3.14 (tracking events fire once when they occur)",
                                   "a tracking URL the play must fire is not in the capture")
    static let auditDuplicated = Rule("VPLAY-audit-duplicated", .error, spec: "VAST 4.3 §3.14.1 (one-shot events fire once)",
                                      "a one-shot tracking URL is in the capture more often than it may be")
    static let auditOrder = Rule("VPLAY-audit-order", .error, spec: "VAST 4.3 §3.14.1 (impression, start, then the quartiles)",
                                 "the capture's beacons must come in the play's order")
    static let auditTiming = Rule("VPLAY-audit-timing", .error, spec: "VAST 4.3 §3.14.1 (quartiles at 25 %, 50 %, 75 % of the duration)",
                                  "each quartile must be sent at its share of the time from start to complete")
    static let auditPlayhead = Rule("VPLAY-audit-playhead", .error, spec: "VAST 4.3 §6.1 ([ADPLAYHEAD])",
                                    "each beacon's [ADPLAYHEAD] must be the playhead of its event")
    static let auditErrorCode = Rule("VPLAY-audit-errorcode", .error, spec: "VAST 4.3 §2.3.6.3 ([ERRORCODE])",
                                     "an Error URL must carry a VAST error code")
    static let auditMacros = Rule("VPLAY-audit-macros", .warning, spec: "VAST 4.3 §6.1 (macros are replaced before the request)",
                                  "a captured request still holds a [MACRO] the player did not expand")

    /// The rule of an audit check by its stable name (`timing.midpoint` → `VPLAY-audit-timing`).
    static func forAuditCheck(_ check: String) -> Rule {
        switch check.split(separator: ".").first ?? "" {
        case "order": .auditOrder
        case "timing": .auditTiming
        case "playhead": .auditPlayhead
        case "errorcode": .auditErrorCode
        default: .auditMacros
        }
    }

    /// Every rule above, in the order `vplay rules` lists them.
    static let auditRules: [Rule] = [.auditMissing, .auditDuplicated, .auditOrder, .auditTiming, .auditPlayhead, .auditErrorCode, .auditMacros]
}
