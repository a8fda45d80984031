/// The facts a tracking URL's macros are filled from at the moment its event happens. Device fields describe the
/// simulated device and come from configuration; nothing here reads the real machine.
public struct MacroContext: Sendable {
    /// Ad playhead of *this* event (the peer sends the previous tick's).
    public var adPlayhead: Duration?
    /// The media file actually played (the peer sends the first one listed).
    public var assetURI: String?
    /// VAST error code, for Error URLs only.
    public var errorCode: Int?
    /// `verificationNotExecuted` reason: 1 rejected, 2 not supported, 3 load error.
    public var reason: Int?
    /// Wall time of the event, ms since 1970 (injected: `--now`).
    public var timestampMilliseconds: Int64
    public var timeZoneOffsetMinutes: Int
    /// `[CACHEBUSTING]` for this URL (8 digits).
    public var cacheBuster: String
    public var adServingId: String?
    /// `registry value` pairs, comma-joined.
    public var universalAdId: String?
    public var adType: String?
    public var podSequence: Int?
    /// `muted`, `fullscreen`, comma-joined; empty when neither.
    public var playerState: [String]
    /// Further configured values by macro name (`DEVICEUA`, `APPBUNDLE`, `IFA`, `PLAYERSIZE`, …), raw.
    public var extra: [String: String]

    public init(adPlayhead: Duration? = nil, assetURI: String? = nil, errorCode: Int? = nil, reason: Int? = nil,
                timestampMilliseconds: Int64, timeZoneOffsetMinutes: Int = 0, cacheBuster: String,
                adServingId: String? = nil, universalAdId: String? = nil, adType: String? = nil, podSequence: Int? = nil,
                playerState: [String] = [], extra: [String: String] = [:]) {
        self.adPlayhead = adPlayhead
        self.assetURI = assetURI
        self.errorCode = errorCode
        self.reason = reason
        self.timestampMilliseconds = timestampMilliseconds
        self.timeZoneOffsetMinutes = timeZoneOffsetMinutes
        self.cacheBuster = cacheBuster
        self.adServingId = adServingId
        self.universalAdId = universalAdId
        self.adType = adType
        self.podSequence = podSequence
        self.playerState = playerState
        self.extra = extra
    }

    /// Raw (unencoded) values by macro name; `MacroExpander` encodes them.
    public var values: [String: String] {
        var values = extra
        values["CACHEBUSTING"] = cacheBuster
        values["TIMESTAMP"] = MacroFormat.timestamp(millisecondsSince1970: timestampMilliseconds, offsetMinutes: timeZoneOffsetMinutes)
        if let adPlayhead {
            let text = MacroFormat.playhead(adPlayhead)
            values["ADPLAYHEAD"] = text
            // No content around a rewarded ad: vplay reports the ad's playhead for the content playhead macros too
            // (VAST 3's CONTENTPLAYHEAD is what the Adcash template uses for "video progress").
            values["CONTENTPLAYHEAD"] = values["CONTENTPLAYHEAD"] ?? text
            values["MEDIAPLAYHEAD"] = values["MEDIAPLAYHEAD"] ?? text
        }
        if let assetURI { values["ASSETURI"] = assetURI }
        if let errorCode { values["ERRORCODE"] = String(errorCode) }
        if let reason { values["REASON"] = String(reason) }
        if let adServingId { values["ADSERVINGID"] = adServingId }
        if let universalAdId { values["UNIVERSALADID"] = universalAdId }
        if let adType { values["ADTYPE"] = adType }
        if let podSequence { values["PODSEQUENCE"] = String(podSequence) }
        values["PLAYERSTATE"] = playerState.joined(separator: ",")
        return values
    }
}
