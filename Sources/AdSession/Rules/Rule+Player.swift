import Findings

/// The rules only a player can check: what vplay finds once it has chosen and opened the media, planned the
/// session and connected its sink. vastlint has none of them (`VPLAY-…` IDs).
public extension Rule {
    // MARK: Media

    static let mediaFallback = Rule("VPLAY-media-fallback", .warning, spec: "VAST 4.3 §3.9.1 (a player falls back within an ad's MediaFiles)",
                                    "a better media file could not be played; a later one was")
    static let mediaDurationDeclared = Rule("VPLAY-media-duration-declared", .warning, spec: "VAST 4.3 §3.8.1 (<Duration>)",
                                            "<Duration> must match the media file's duration (vplay allows 1 s)")
    static let mediaDurationContainer = Rule("VPLAY-media-duration-container", .warning, spec: "ISO/IEC 14496-12 (the container's duration)",
                                             "the container's declared duration must match its streams'")
    static let mediaMoovAfterMdat = Rule("VPLAY-media-moov-after-mdat", .warning, spec: "IAB Ad Format Guidelines v2.0 (video: MOOV atom first)",
                                         "an MP4's moov must come before its media data, so playback starts before the whole file arrives")
    static let mediaSizeDeclared = Rule("VPLAY-media-size-declared", .warning, spec: "VAST 4.3 §3.9.1 (MediaFile width, height)",
                                        "the MediaFile's width and height must be its video's")
    static let mediaBitrateDeclared = Rule("VPLAY-media-bitrate-declared", .warning, spec: "VAST 4.3 §3.9.1 (MediaFile bitrate, minBitrate, maxBitrate)",
                                           "the MediaFile's bitrate must be the file's (vplay allows 25 % and 150 kbps)")
    static let mediaCodecDeclared = Rule("VPLAY-media-codec-declared", .warning, spec: "VAST 4.3 §3.9.1 (MediaFile codec, RFC 6381)",
                                         "each codec the MediaFile declares must be one of the file's streams")
    static let mediaTypeDeclared = Rule("VPLAY-media-type-declared", .warning, spec: "VAST 4.3 §3.9.1 (MediaFile type)",
                                        "the MediaFile's type must be the file's container")
    static let mediaAdcashQuality = Rule("VPLAY-media-adcash-quality", .info, spec: "Adcash rewarded-video SDK (thesis seed 000, Table 5)",
                                         "the Adcash quality ladder's choice for the next ad")

    // MARK: The ad and its break

    static let rewardExtensionOff = Rule("VPLAY-reward-extension-off", .warning, spec: "Adcash RewardedVideo extension (<RewardedVideoOn>)",
                                         "the tag describes a reward and turns it off: none is granted")
    static let podFirstOnly = Rule("VPLAY-pod-first-only", .info, spec: "VAST 4.3 §3.2.1 (ad pods)",
                                   "the response is a pod; without --pod only its first playable ad plays")
    static let podAdsCut = Rule("VPLAY-pod-ads-cut", .warning, spec: "VAST 4.3 §2.3.6.3 (206: ad break shortened)",
                                "the pod has more ads than vplay plays; the rest are cut")
    static let verificationNotExecuted = Rule("VPLAY-verification-not-executed", .info, spec: "VAST 4.3 §3.17.1 (verificationNotExecuted)",
                                              "a verification vendor's script is not executed; its verificationNotExecuted URLs fire")
    static let interactiveNotExecuted = Rule("VPLAY-interactive-not-executed", .info, spec: "VAST 4.3 §3.9.3 (InteractiveCreativeFile; error 409)",
                                             "an InteractiveCreativeFile is not executed: 409 fires to the chain's Error URLs, then the MediaFile plays")

    // MARK: Bids

    static let bidChoice = Rule("VPLAY-bid-choice", .info, spec: "OpenRTB 2.6 §3.2.2 (SeatBid), §3.2.3 (Bid)",
                                "the bid response has several bids: the highest price is played")
    static let bidMismatch = Rule("VPLAY-bid-mismatch", .warning, spec: "OpenRTB 2.6 §3.2.1 (BidResponse.id), §3.2.3 (Bid.impid)",
                                  "the bid does not answer its request: another id, an impid of no imp, an imp without video")
    static let bidMacro = Rule("VPLAY-bid-macro", .warning, spec: "OpenRTB 2.6 §4.4 (substitution macros)",
                               "an auction macro has no value vplay can give, or an encoding it does not apply: left as written")
    static let bidNoBilling = Rule("VPLAY-bid-no-billing", .info, spec: "OpenRTB 2.6 §3.2.3 (Bid.burl), §4.3 (billing notice)",
                                   "no billing notice fires: the bid has no burl, or the moment it waits for is never measured")

    // MARK: The session around it

    static let sinkUnavailable = Rule("VPLAY-sink-unavailable", .warning, spec: "vplay (the embedded sink)",
                                      "the embedded sink could not start; beacons go to their own hosts")
    static let fleetViewabilityUnpredicted = Rule("VPLAY-fleet-viewability-unpredicted", .info, spec: "VAST 4.3 §3.5 (ViewableImpression)",
                                                  "a fleet on a simulated network does not predict viewability")

    /// Every rule above, in the order `vplay rules` lists them.
    static let playerRules: [Rule] = [
        .mediaFallback, .mediaDurationDeclared, .mediaDurationContainer, .mediaMoovAfterMdat, .mediaSizeDeclared, .mediaBitrateDeclared,
        .mediaCodecDeclared, .mediaTypeDeclared, .mediaAdcashQuality,
        .rewardExtensionOff, .podFirstOnly, .podAdsCut, .verificationNotExecuted, .interactiveNotExecuted, .bidChoice, .bidMismatch, .bidMacro, .bidNoBilling,
        .sinkUnavailable, .fleetViewabilityUnpredicted,
    ]
}

public extension RuleCatalogue {
    /// Every rule vplay checks: the VAST document's, one per VAST error code, the player's and the audit's.
    static let standard = RuleCatalogue(Rule.vastDocumentRules + Rule.vastErrorRules + Rule.playerRules + Rule.chainRules + Rule.beaconRules + Rule.creativeRules + Rule.auditRules + Rule.vmapRules + Rule.ssaiRules + Rule.sgaiRules)
}
