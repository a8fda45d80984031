import Findings

/// What `vplay lint` learns of the tag chain by fetching it as a player does: how each tag was served, how deep the
/// chain goes and how long it takes. A static linter, given the XML alone, cannot see any of it.
public extension Rule {
    static let tagCORS = Rule("VPLAY-tag-cors", .warning, spec: "WHATWG Fetch Standard (CORS: Access-Control-Allow-Origin)",
                              "a tag served over HTTP must allow cross-origin reads, or a web player's browser will not let the player read it")
    static let tagContentType = Rule("VPLAY-tag-content-type", .warning, spec: "RFC 7303 (XML media types)",
                                     "a tag must be served as XML (text/xml, application/xml or a +xml type)")
    static let wrapperDepth = Rule("VPLAY-wrapper-depth", .warning, spec: "VAST 4.3 §2.3.5 (wrapper chains limited to five); IMA iOS maxRedirects 4",
                                   "a chain of more than 4 wrappers fails on IMA (302 after maxRedirects 4) and nears VAST's limit of five")
    static let resolutionTime = Rule("VPLAY-resolution-time", .warning, spec: "IMA vastLoadTimeout (HTML5 and Android 5 s a request; iOS 8 s, then 4 s a wrapper)",
                                     "each tag request must answer within 5 s, and the chain within IMA iOS's budget")

    /// Every rule above, in the order `vplay rules` lists them.
    static let chainRules: [Rule] = [.tagCORS, .tagContentType, .wrapperDepth, .resolutionTime]
}

/// What `vplay lint --probe-beacons` learns by requesting each tracking URL once.
public extension Rule {
    static let beaconStatus = Rule("VPLAY-beacon-status", .warning, spec: "VAST 4.3 §2.3.4 (tracking URIs are requested and must be answered)",
                                   "a tracking URL must answer 2xx or 3xx (--probe-beacons)")
    static let beaconRedirectHTTP = Rule("VPLAY-beacon-redirect-http", .warning, spec: "VAST 4.3 §3.4 (secure tracking); W3C Mixed Content",
                                         "an https tracking URL must not redirect to plain http, which a web page blocks (--probe-beacons)")
    static let beaconSlow = Rule("VPLAY-beacon-slow", .warning, spec: "vplay (a beacon slower than 1 s is lost when the app closes after complete)",
                                 "a tracking URL must answer within 1 s (--probe-beacons)")

    /// Every rule above, in the order `vplay rules` lists them.
    static let beaconRules: [Rule] = [.beaconStatus, .beaconRedirectHTTP, .beaconSlow]
}
