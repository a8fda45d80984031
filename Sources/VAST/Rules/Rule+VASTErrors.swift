import Findings

/// A rule per VAST error code: every error vplay reports (and fires to Error URLs) is a finding of the rule of its
/// code, `VPLAY-error-NNN`, an error by default.
public extension Rule {
    /// The rule of `code`.
    static func vastError(_ code: VASTErrorCode) -> Rule {
        Rule("VPLAY-error-\(code.rawValue)", .error, spec: "VAST 4.3 §2.3.6.3 (error codes), code \(code.rawValue)", code.meaning)
    }

    /// One rule per code, in code order.
    static let vastErrorRules: [Rule] = VASTErrorCode.allCases.map(vastError)
}

public extension VASTError {
    /// This error as a finding of its code's rule.
    var finding: Finding { Finding(.vastError(code), message) }
}
