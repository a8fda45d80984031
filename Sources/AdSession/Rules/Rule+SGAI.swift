import Findings

/// What a stream with HLS interstitials finds in its playlist, asset lists and SVTA2053 signalling (RFC 8216bis
/// appendix D; SVTA2053 ad-creative signalling), and where the common players differ from vplay's choices.
public extension Rule {
    static let sgaiPlayoutLimit = Rule("VPLAY-sgai-playout-limit", .warning, spec: "RFC 8216bis appendix D.2 (X-PLAYOUT-LIMIT)",
                                       "X-PLAYOUT-LIMIT ends an interstitial where it falls in what played: the asset playing stops there (no complete, no closeLinear), the assets after it are not played")
    static let sgaiAssetFailed = Rule("VPLAY-sgai-asset-failed", .warning, spec: "RFC 8216bis appendix D.2 (X-ASSET-LIST); hls.js#7180",
                                      "an asset of an interstitial failed: the assets after it play on, as AVFoundation does (hls.js once failed the whole list)")
    static let sgaiTracking = Rule("VPLAY-sgai-tracking", .warning, spec: "SVTA2053 ad-creative signalling (tracking)",
                                   "a tracking entry is not fired as written: a type VAST does not define, or an offset that disagrees with the time its type has")
    static let sgaiSignaling = Rule("VPLAY-sgai-signaling", .warning, spec: "SVTA2053 ad-creative signalling (slots, pods)",
                                    "the signalling does not match the assets: more or fewer slots than assets, or a slot's duration that differs from its asset's")
    static let sgaiAttributes = Rule("VPLAY-sgai-attributes", .info, spec: "RFC 8216bis appendix D.2 (CUE, X-TIMELINE-OCCUPIES)",
                                     "an interstitial attribute vplay applies in part: what it does with it is said")
    static let sgaiVariant = Rule("VPLAY-sgai-variant", .info, spec: "RFC 8216bis appendix D (interstitials are in media playlists); MediaTailor guided sessions",
                                  "a multivariant playlist was given: its first variant is read, once (interstitials are signalled alike in every media playlist)")
    static let sgaiPlayers = Rule("VPLAY-sgai-players", .info, spec: "hls.js#6983, shaka-player#7661, livesim2#333",
                                  "common players would play this stream differently: the difference is said")

    /// Every interstitial rule, in the order `vplay rules` lists them.
    static let sgaiRules: [Rule] = [.sgaiPlayoutLimit, .sgaiAssetFailed, .sgaiTracking, .sgaiSignaling, .sgaiAttributes, .sgaiVariant, .sgaiPlayers]
}
