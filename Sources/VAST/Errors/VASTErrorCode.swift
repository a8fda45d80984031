/// The numeric VAST error codes (VAST 4.3 error table, also used by VAST 3.0 for 100–405, 500–503, 600–604, 900, 901).
///
/// The raw value is what goes into the `[ERRORCODE]` macro of an `<Error>` URL.
public enum VASTErrorCode: Int, Sendable, Codable, Hashable, CaseIterable, CustomStringConvertible {
    /// XML parse error: the input is not well-formed XML (or exceeds the parser's safety limits).
    case xmlParse = 100
    /// VAST schema validation error: a required element or attribute is missing or the root is not `<VAST>`.
    case schemaValidation = 101
    /// VAST version of the response is not supported (VAST 1.0 `VideoAdServingTemplate`, or a major version above 4).
    case unsupportedVersion = 102
    /// Trafficking error: the player received an unexpected ad type.
    case trafficking = 200
    /// Linearity different from what the player expected.
    case unexpectedLinearity = 201
    /// Duration different from what the player expected.
    case unexpectedDuration = 202
    /// Size different from what the player expected.
    case unexpectedSize = 203
    /// Ad category was required but not provided.
    case categoryRequired = 204
    /// Ad category was blocked.
    case categoryBlocked = 205
    /// Ad break was shortened; the ad was not served (VAST 4.2).
    case adBreakShortened = 206
    /// General Wrapper error (also: a VASTAdTagURI that is not http(s), a wrapper loop, a refused extra wrapper).
    case wrapperGeneral = 300
    /// Timeout of the VAST URI of a Wrapper, or the URI was unreachable or did not return VAST.
    case wrapperTimeout = 301
    /// Wrapper limit reached: too many Wrapper responses without an InLine.
    case wrapperLimit = 302
    /// No VAST response after one or more Wrappers (also: an empty root response, with the root `<Error>` URLs).
    case noAdAfterWrapper = 303
    /// InLine response returned ad unit that failed to result in ad display within the defined time limit.
    case inlineDisplayTimeout = 304
    /// General Linear error.
    case linearGeneral = 400
    /// MediaFile not found.
    case mediaFileNotFound = 401
    /// Timeout of the MediaFile URI.
    case mediaFileTimeout = 402
    /// No supported MediaFile found (none the player can play).
    case noSupportedMediaFile = 403
    /// Problem displaying the MediaFile.
    case mediaFileDisplay = 405
    /// Mezzanine was required but not provided.
    case mezzanineRequired = 406
    /// Mezzanine is still being downloaded for the first time.
    case mezzanineDownloading = 407
    /// Conditional ad rejected (deprecated in VAST 4.1).
    case conditionalAdRejected = 408
    /// Interactive unit in the InteractiveCreativeFile was not executed.
    case interactiveCreativeNotExecuted = 409
    /// Verification unit in the Verification node was not executed.
    case verificationNotExecuted = 410
    /// Mezzanine was provided but did not meet the specification.
    case mezzanineInvalid = 411
    /// General NonLinear error.
    case nonLinearGeneral = 500
    /// NonLinear dimensions do not fit the display area.
    case nonLinearSize = 501
    /// Unable to fetch the NonLinear resource.
    case nonLinearFetch = 502
    /// NonLinear resource type not supported.
    case nonLinearType = 503
    /// General Companion error.
    case companionGeneral = 600
    /// Companion dimensions do not fit the display area.
    case companionSize = 601
    /// Required Companion could not be displayed.
    case companionRequired = 602
    /// Unable to fetch the Companion resource.
    case companionFetch = 603
    /// Companion resource type not supported.
    case companionType = 604
    /// Undefined error.
    case undefined = 900
    /// General VPAID error.
    case vpaid = 901
    /// General InteractiveCreativeFile error (VAST 4.2).
    case interactiveCreative = 902

    /// What the VAST 4.3 error table says the code means, in one line (its doc comment's first sentence).
    public var meaning: String {
        switch self {
        case .xmlParse: "XML parse error"
        case .schemaValidation: "VAST schema validation error"
        case .unsupportedVersion: "VAST version of the response is not supported"
        case .trafficking: "Trafficking error"
        case .unexpectedLinearity: "Linearity different from what the player expected"
        case .unexpectedDuration: "Duration different from what the player expected"
        case .unexpectedSize: "Size different from what the player expected"
        case .categoryRequired: "Ad category was required but not provided"
        case .categoryBlocked: "Ad category was blocked"
        case .adBreakShortened: "Ad break was shortened; the ad was not served"
        case .wrapperGeneral: "General Wrapper error"
        case .wrapperTimeout: "Timeout of the VAST URI of a Wrapper, or the URI was unreachable or did not return VAST"
        case .wrapperLimit: "Wrapper limit reached"
        case .noAdAfterWrapper: "No VAST response after one or more Wrappers"
        case .inlineDisplayTimeout: "InLine response returned ad unit that failed to result in ad display within the defined time limit"
        case .linearGeneral: "General Linear error"
        case .mediaFileNotFound: "MediaFile not found"
        case .mediaFileTimeout: "Timeout of the MediaFile URI"
        case .noSupportedMediaFile: "No supported MediaFile found"
        case .mediaFileDisplay: "Problem displaying the MediaFile"
        case .mezzanineRequired: "Mezzanine was required but not provided"
        case .mezzanineDownloading: "Mezzanine is still being downloaded for the first time"
        case .conditionalAdRejected: "Conditional ad rejected"
        case .interactiveCreativeNotExecuted: "Interactive unit in the InteractiveCreativeFile was not executed"
        case .verificationNotExecuted: "Verification unit in the Verification node was not executed"
        case .mezzanineInvalid: "Mezzanine was provided but did not meet the specification"
        case .nonLinearGeneral: "General NonLinear error"
        case .nonLinearSize: "NonLinear dimensions do not fit the display area"
        case .nonLinearFetch: "Unable to fetch the NonLinear resource"
        case .nonLinearType: "NonLinear resource type not supported"
        case .companionGeneral: "General Companion error"
        case .companionSize: "Companion dimensions do not fit the display area"
        case .companionRequired: "Required Companion could not be displayed"
        case .companionFetch: "Unable to fetch the Companion resource"
        case .companionType: "Companion resource type not supported"
        case .undefined: "Undefined error"
        case .vpaid: "General VPAID error"
        case .interactiveCreative: "General InteractiveCreativeFile error"
        }
    }

    public var description: String { String(rawValue) }
}
