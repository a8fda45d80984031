import Findings

/// The rules vplay checks on a VAST document as it reads it (`VASTParser`, `DocumentBuilder`). Where vastlint makes
/// the same check, the ID and default severity are vastlint's (docs/reference/rules.md keeps the mapping); the others
/// are vplay's (`VPLAY-vast-…`).
public extension Rule {
    // MARK: The document

    static let rootVersion = Rule("VAST-2.0-root-version", .error, spec: "VAST 2.0 §2.2.1; VAST 4.3 §3.1",
                                  "<VAST> must have a version attribute")
    static let rootVersionValue = Rule("VAST-2.0-root-version-value", .warning, spec: "VAST 4.3 §3.1",
                                       "the version attribute must be a recognised version number")
    static let versionOne = Rule("VPLAY-vast-version-1", .warning, spec: "VAST 2.0 §2.2.1 (VAST 1 used <VideoAdServingTemplate>)",
                                 "a <VAST> root declares a 1.x version; read as VAST 2")
    static let adInLineOrWrapper = Rule("VAST-2.0-ad-has-inline-or-wrapper", .error, spec: "VAST 4.3 §3.2",
                                        "each <Ad> must hold exactly one <InLine> or <Wrapper>")
    static let adSequence = Rule("VPLAY-vast-sequence-integer", .warning, spec: "VAST 4.3 §3.2.1",
                                 "the sequence attribute of <Ad> must be an integer")
    static let expires = Rule("VPLAY-vast-expires-integer", .warning, spec: "VAST 4.3 §3.4.1 (<Expires>)",
                              "<Expires> must be an integer number of seconds")

    // MARK: InLine and Wrapper

    static let inLineAdSystem = Rule("VAST-2.0-inline-adsystem", .error, spec: "VAST 4.3 §3.4.1", "<InLine> must contain <AdSystem>")
    static let inLineAdTitle = Rule("VAST-2.0-inline-adtitle", .error, spec: "VAST 4.3 §3.4.1", "<InLine> must contain <AdTitle>")
    static let inLineImpression = Rule("VAST-2.0-inline-impression", .error, spec: "VAST 4.3 §3.4.1",
                                       "<InLine> must contain at least one <Impression>")
    static let inLineCreatives = Rule("VAST-2.0-inline-creatives", .error, spec: "VAST 4.3 §3.4.1",
                                      "<InLine> must contain <Creatives> with at least one <Creative>")
    static let adServingID = Rule("VAST-4.1-adservingid-present", .error, spec: "VAST 4.3 §3.4.1 (required since VAST 4.1)",
                                  "<InLine> must contain <AdServingId>")
    static let wrapperAdSystem = Rule("VAST-2.0-wrapper-adsystem", .error, spec: "VAST 4.3 §3.19", "<Wrapper> must contain <AdSystem>")
    static let wrapperImpression = Rule("VAST-2.0-wrapper-impression", .error, spec: "VAST 4.3 §3.19",
                                        "<Wrapper> must contain at least one <Impression>")
    static let vastOneWrapperForm = Rule("VPLAY-vast-1-wrapper-form", .warning, spec: "VAST 2.0 §2.4.1 (<VASTAdTagURI>)",
                                         "<VASTAdTagURL><URL> is VAST 1's wrapper form; <VASTAdTagURI> is the standard one")
    static let urlInvalid = Rule("VAST-2.0-url-invalid", .warning, spec: "VAST 4.3 §3.14 (URIs); RFC 3986",
                                 "a tracking URL is not an absolute http(s) URL, so it is never requested")
    static let urlEmpty = Rule("VAST-2.0-url-empty", .error, spec: "VAST 4.3 §3.4.1, §3.9.1", "a URL element is empty")

    // MARK: Macros and tracking

    static let macroUnknown = Rule("VAST-2.0-macro-unknown", .warning, spec: "VAST 4.3 §6.1 (macros)",
                                   "a URL contains a [MACRO] that is not a VAST 4.x macro")
    static let trackingEventMissing = Rule("VPLAY-vast-tracking-event-missing", .warning, spec: "VAST 4.3 §3.14.1",
                                           "<Tracking> must have an event attribute")
    static let trackingEventValue = Rule("VAST-4.1-tracking-event-value", .error, spec: "VAST 4.3 §3.14.1",
                                         "the event attribute must be an event the VAST version defines")
    static let notUsedEvent = Rule("VPLAY-vast-notused-event", .info, spec: "VAST 4.3 §3.14.1 (notUsed, VAST 4.2+)",
                                   "\"notUsed\" is VAST 4.2+ and missing from the 4.1 and 4.2 XSDs")
    static let progressOffset = Rule("VAST-3.0-progress-offset", .error, spec: "VAST 4.3 §3.14.1",
                                     "<Tracking event=\"progress\"> requires an offset attribute")
    static let progressOffsetFormat = Rule("VAST-3.0-progress-offset-format", .warning, spec: "VAST 4.3 §3.14.1",
                                           "a progress offset must be HH:MM:SS[.mmm] or n%")

    // MARK: Linear and its files

    static let linearDuration = Rule("VAST-2.0-linear-duration", .error, spec: "VAST 4.3 §3.8.1", "<Linear> must contain <Duration>")
    static let durationFormat = Rule("VAST-2.0-duration-format", .error, spec: "VAST 4.3 §3.8.1", "<Duration> must be HH:MM:SS[.mmm]")
    static let skipOffsetFormat = Rule("VAST-3.0-skipoffset-format", .warning, spec: "VAST 4.3 §3.8.1",
                                       "skipoffset must be HH:MM:SS[.mmm] or n%")
    static let linearMediaFiles = Rule("VAST-2.0-linear-mediafiles", .error, spec: "VAST 4.3 §3.9",
                                       "<Linear> must contain <MediaFiles> with at least one <MediaFile>")
    static let mediaFileDelivery = Rule("VAST-2.0-mediafile-delivery", .error, spec: "VAST 4.3 §3.9.1", "<MediaFile> must have a delivery attribute")
    static let mediaFileType = Rule("VAST-2.0-mediafile-type", .error, spec: "VAST 4.3 §3.9.1", "<MediaFile> must have a type attribute")
    static let mediaFileDimensions = Rule("VAST-2.0-mediafile-dimensions", .error, spec: "VAST 4.3 §3.9.1",
                                          "<MediaFile> must have width and height attributes")
    static let integerAttribute = Rule("VPLAY-vast-integer-attribute", .warning, spec: "VAST 4.3 XSD (xs:integer attributes)",
                                       "a width, height, bitrate or size attribute must be a non-negative integer within limits")
    static let mezzanineDelivery = Rule("VAST-4.1-mezzanine-delivery", .error, spec: "VAST 4.3 §3.9.2", "<Mezzanine> must have a delivery attribute")
    static let mezzanineType = Rule("VAST-4.1-mezzanine-type", .error, spec: "VAST 4.3 §3.9.2", "<Mezzanine> must have a type attribute")
    static let mezzanineWidth = Rule("VAST-4.1-mezzanine-width", .error, spec: "VAST 4.3 §3.9.2", "<Mezzanine> must have a width attribute")
    static let mezzanineHeight = Rule("VAST-4.1-mezzanine-height", .error, spec: "VAST 4.3 §3.9.2", "<Mezzanine> must have a height attribute")

    // MARK: Creatives beside the video

    static let universalAdID = Rule("VAST-4.0-universaladid-present", .error, spec: "VAST 4.3 §3.7.1", "<Creative> must contain <UniversalAdId>")
    static let universalAdIDRegistry = Rule("VAST-4.0-universaladid-idregistry", .error, spec: "VAST 4.3 §3.7.1",
                                            "<UniversalAdId> must have an idRegistry attribute")
    static let companionDimensions = Rule("VAST-2.0-companion-dimensions", .warning, spec: "VAST 4.3 §3.15.1", "<Companion> must have width and height")
    static let companionResource = Rule("VAST-2.0-companion-resource", .error, spec: "VAST 4.3 §3.15.1",
                                        "<Companion> must contain at least one resource")
    static let companionRequired = Rule("VAST-3.0-companion-required-attr", .warning, spec: "VAST 4.3 §3.15",
                                        "<CompanionAds> required must be all, any or none")
    static let nonLinearDimensions = Rule("VAST-2.0-nonlinear-dimensions", .warning, spec: "VAST 4.3 §3.16.1", "<NonLinear> must have width and height")
    static let nonLinearResource = Rule("VAST-2.0-nonlinear-resource", .error, spec: "VAST 4.3 §3.16.1",
                                        "<NonLinear> must contain at least one resource")
    static let staticResourceType = Rule("VPLAY-vast-staticresource-creativetype", .warning, spec: "VAST 4.3 §3.15.2 (every XSD)",
                                         "<StaticResource> must have a creativeType attribute")
    static let iconResource = Rule("VAST-3.0-icon-resource", .error, spec: "VAST 4.3 §3.12.1", "<Icon> must have at least one resource")
    static let iconsEmpty = Rule("VPLAY-vast-icons-empty", .warning, spec: "VAST 4.3 §3.12", "<Icons> must contain at least one <Icon>")
    static let iconTimeFormat = Rule("VPLAY-vast-icon-time-format", .warning, spec: "VAST 4.3 §3.12.1",
                                     "an icon's duration and offset must be HH:MM:SS[.mmm]")

    // MARK: Metadata

    static let categoryAuthority = Rule("VAST-4.0-category-authority", .error, spec: "VAST 4.3 §3.4.2", "<Category> must have an authority attribute")
    static let blockedCategoriesAuthority = Rule("VAST-4.1-blockedadcategories-no-authority", .warning, spec: "VAST 4.3 §3.3",
                                                 "<BlockedAdCategories> should have an authority attribute")
    static let pricingModel = Rule("VAST-3.0-pricing-model", .error, spec: "VAST 4.3 §3.4.3", "<Pricing> must have a model attribute")
    static let pricingCurrency = Rule("VAST-3.0-pricing-currency", .error, spec: "VAST 4.3 §3.4.3", "<Pricing> must have a currency attribute")

    // MARK: Verification

    static let verificationVendor = Rule("VAST-4.1-verification-vendor", .error, spec: "VAST 4.3 §3.17.1", "<Verification> must have a vendor attribute")
    static let verificationResource = Rule("VAST-4.1-verification-no-resource", .warning, spec: "VAST 4.3 §3.17.1",
                                           "<Verification> should have a <JavaScriptResource> or <ExecutableResource>")
    static let javaScriptAPIFramework = Rule("VAST-4.1-js-resource-apiframework", .error, spec: "VAST 4.3 §3.17.2",
                                             "<JavaScriptResource> must have an apiFramework attribute")
    static let javaScriptBrowserOptional = Rule("VAST-4.3-js-resource-browser-optional", .warning, spec: "VAST 4.3 §3.17.2",
                                                "<JavaScriptResource> should have a browserOptional attribute")
    static let executableAPIFramework = Rule("VAST-4.1-exec-resource-apiframework", .error, spec: "VAST 4.3 §3.17.3",
                                             "<ExecutableResource> must have an apiFramework attribute")
    static let executableType = Rule("VAST-4.1-exec-resource-type", .error, spec: "VAST 4.3 §3.17.3", "<ExecutableResource> must have a type attribute")

    // MARK: Wrapper resolution

    static let resolutionDroppedAds = Rule("VPLAY-resolution-ads-dropped", .info, spec: "VAST 4.3 §3.19.1 (allowMultipleAds)",
                                           "ads of a wrapper's target left out, as the wrapper's attributes ask")

    /// The rule of a required attribute `attribute` of `<element>` (`requireAttributes`).
    static func forMissingAttribute(_ attribute: String, of element: String) -> Rule {
        switch (element, attribute) {
        case ("Category", _): .categoryAuthority
        case ("BlockedAdCategories", _): .blockedCategoriesAuthority
        case ("Pricing", "model"): .pricingModel
        case ("Pricing", _): .pricingCurrency
        case ("UniversalAdId", _): .universalAdIDRegistry
        case ("Mezzanine", "delivery"): .mezzanineDelivery
        case ("Mezzanine", "type"): .mezzanineType
        case ("Mezzanine", "width"): .mezzanineWidth
        case ("Mezzanine", _): .mezzanineHeight
        case ("Companion", _): .companionDimensions
        case ("NonLinear", _): .nonLinearDimensions
        case ("Verification", _): .verificationVendor
        case ("JavaScriptResource", "apiFramework"): .javaScriptAPIFramework
        case ("JavaScriptResource", _): .javaScriptBrowserOptional
        case ("ExecutableResource", "apiFramework"): .executableAPIFramework
        case ("ExecutableResource", _): .executableType
        case ("MediaFile", "delivery"): .mediaFileDelivery
        case ("MediaFile", "type"): .mediaFileType
        case ("MediaFile", _): .mediaFileDimensions
        default: .staticResourceType
        }
    }

    /// The rule of a required child `<child>` of `<element>` (`requireChildren`, `requireOneOf`).
    static func forMissingChild(_ child: String, of element: String) -> Rule {
        switch element {
        case "InLine", "Creatives": .inLineCreatives
        case "Creative": .universalAdID
        case "Icons": .iconsEmpty
        case "Companion": .companionResource
        case "NonLinear": .nonLinearResource
        case "Icon": .iconResource
        default: .verificationResource
        }
    }

    /// Every rule above, in the order `vplay rules` lists them.
    static let vastDocumentRules: [Rule] = [
        .rootVersion, .rootVersionValue, .versionOne, .adInLineOrWrapper, .adSequence, .expires,
        .inLineAdSystem, .inLineAdTitle, .inLineImpression, .inLineCreatives, .adServingID, .wrapperAdSystem, .wrapperImpression,
        .vastOneWrapperForm, .urlInvalid, .urlEmpty,
        .macroUnknown, .trackingEventMissing, .trackingEventValue, .notUsedEvent, .progressOffset, .progressOffsetFormat,
        .linearDuration, .durationFormat, .skipOffsetFormat, .linearMediaFiles, .mediaFileDelivery, .mediaFileType, .mediaFileDimensions,
        .integerAttribute, .mezzanineDelivery, .mezzanineType, .mezzanineWidth, .mezzanineHeight,
        .universalAdID, .universalAdIDRegistry, .companionDimensions, .companionResource, .companionRequired, .nonLinearDimensions,
        .nonLinearResource, .staticResourceType, .iconResource, .iconsEmpty, .iconTimeFormat,
        .categoryAuthority, .blockedCategoriesAuthority, .pricingModel, .pricingCurrency,
        .verificationVendor, .verificationResource, .javaScriptAPIFramework, .javaScriptBrowserOptional, .executableAPIFramework, .executableType,
        .resolutionDroppedAds,
    ]
}
