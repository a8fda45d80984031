import VAST
/// The facts a tracking URL's macros are filled from at the moment its event happens. Device fields describe the
/// simulated device and come from configuration; nothing here reads the real machine. A fact left nil has no value:
/// its macro is sent as `-1` (unknown).
public struct MacroContext: Sendable {
    /// Ad playhead of *this* event (the peer sends the previous tick's); nil before anything played.
    public var adPlayhead: Duration?
    /// The absolute URI of the media file actually played (the peer sends the first one listed).
    public var assetURI: String?
    /// VAST error code, for Error URLs only.
    public var errorCode: Int?
    /// `verificationNotExecuted` reason: 1 rejected, 2 not supported, 3 load error.
    public var reason: Int?
    /// Wall time of the event, ms since 1970 (injected: `--now`).
    public var timestampMilliseconds: Int64
    /// The simulated device's offset from UTC, minutes, shown in `[TIMESTAMP]`.
    public var timeZoneOffsetMinutes: Int
    /// `[CACHEBUSTING]` for this URL (8 digits).
    public var cacheBuster: String
    /// `[ADSERVINGID]`: the InLine's `<AdServingId>`, when it has one.
    public var adServingId: String?
    /// `registry value` of each `<UniversalAdId>` (IAB format `{registryID}{space}{idvalue}`), one element each.
    public var universalAdIds: [String]
    /// `[ADTYPE]`: the ad's `adType` attribute.
    public var adType: String?
    /// `[PODSEQUENCE]`: the ad's pod `sequence`; nil for a stand-alone ad.
    public var podSequence: Int?
    /// `[ADCOUNT]`: InLine ads played in the chain so far, this one included (1 for a single ad).
    public var adCount: Int?
    /// `[TRANSACTIONID]`: the session's UUID.
    public var transactionID: String?
    /// `[ADCATEGORIES]`: the ad's `<Category>` codes (VAST 4.x), one element each; empty when it has none.
    public var adCategories: [String]
    /// `muted`, `fullscreen`; empty when neither.
    public var playerState: [String]
    /// Further configured values by macro name (`DEVICEUA`, `APPBUNDLE`, `IFA`, `PLAYERSIZE`, …), raw; list macros
    /// (`PLAYERSIZE=390,844`) are split on `,`.
    public var extra: [String: String]

    /// A context for one event; every fact not given is nil or empty (its macro unknown).
    public init(adPlayhead: Duration? = nil, assetURI: String? = nil, errorCode: Int? = nil, reason: Int? = nil,
                timestampMilliseconds: Int64, timeZoneOffsetMinutes: Int = 0, cacheBuster: String,
                adServingId: String? = nil, universalAdIds: [String] = [], adType: String? = nil, podSequence: Int? = nil,
                adCount: Int? = nil, transactionID: String? = nil, playerState: [String] = [], extra: [String: String] = [:],
                adCategories: [String] = []) {
        self.adCategories = adCategories
        self.adPlayhead = adPlayhead
        self.assetURI = assetURI
        self.errorCode = errorCode
        self.reason = reason
        self.timestampMilliseconds = timestampMilliseconds
        self.timeZoneOffsetMinutes = timeZoneOffsetMinutes
        self.cacheBuster = cacheBuster
        self.adServingId = adServingId
        self.universalAdIds = universalAdIds
        self.adType = adType
        self.podSequence = podSequence
        self.adCount = adCount
        self.transactionID = transactionID
        self.playerState = playerState
        self.extra = extra
    }

    /// The fact a macro is filled from, told by its name once (`MacroTemplate` keeps it with each macro of a
    /// template, so no name is compared again per beacon).
    public enum Fact: Sendable, Equatable {
        /// The fact of the VAST macro of the same name (`CACHEBUSTING`, `TIMESTAMP`, `PLAYERSTATE`, …).
        case cacheBusting, timestamp, playerState, adPlayhead, assetURI, errorCode, reason, adServingId, universalAdId
        /// The fact of the VAST macro of the same name (`ADTYPE`, `PODSEQUENCE`, `ADCOUNT`, `TRANSACTIONID`,
        /// `ADCATEGORIES`).
        case adType, podSequence, adCount, transactionID, adCategories
        /// `CONTENTPLAYHEAD`, `MEDIAPLAYHEAD`: a configured value, else the ad's playhead.
        case contentPlayhead
        /// `RANDOM`, `random`: `[CACHEBUSTING]`'s value.
        case legacyCacheBuster
        /// Only a configured value (`extra`).
        case configured

        /// The fact the macro `name` is filled from (case-sensitive).
        public init(_ name: String) {
            switch name {
            case "CACHEBUSTING": self = .cacheBusting
            case "TIMESTAMP": self = .timestamp
            case "PLAYERSTATE": self = .playerState
            case "ADPLAYHEAD": self = .adPlayhead
            case "CONTENTPLAYHEAD", "MEDIAPLAYHEAD": self = .contentPlayhead
            case "ASSETURI": self = .assetURI
            case "ERRORCODE": self = .errorCode
            case "REASON": self = .reason
            case "ADSERVINGID": self = .adServingId
            case "UNIVERSALADID": self = .universalAdId
            case "ADTYPE": self = .adType
            case "PODSEQUENCE": self = .podSequence
            case "ADCOUNT": self = .adCount
            case "TRANSACTIONID": self = .transactionID
            case "ADCATEGORIES": self = .adCategories
            default: self = VASTMacroNames.legacyCacheBusters.contains(name) ? .legacyCacheBuster : .configured
            }
        }
    }

    /// The raw (unencoded) value of the macro `name`, as `values[name]`, without building the whole table.
    /// (`MacroTemplate` asks `value(of:named:)`, each macro's fact told once when the template is scanned.)
    public func value(named name: String) -> MacroValue? {
        value(of: Fact(name), named: name)
    }

    /// `value(named: name)`, its fact told already (`Fact(name)`).
    public func value(of fact: Fact, named name: String) -> MacroValue? {
        switch fact {
        case .cacheBusting, .legacyCacheBuster: return .text(cacheBuster)
        case .timestamp: return .text(MacroFormat.timestamp(millisecondsSince1970: timestampMilliseconds, offsetMinutes: timeZoneOffsetMinutes))
        case .playerState: return .list(playerState)
        case .adPlayhead: if let adPlayhead { return .text(MacroFormat.playhead(adPlayhead)) }
        case .contentPlayhead:
            // A configured value wins; else the ad's playhead (no content around a rewarded ad).
            if extra[name] == nil, let adPlayhead { return .text(MacroFormat.playhead(adPlayhead)) }
        case .assetURI: if let assetURI { return .text(assetURI) }
        case .errorCode: if let errorCode { return .text(String(errorCode)) }
        case .reason: if let reason { return .text(String(reason)) }
        case .adServingId: if let adServingId { return .text(adServingId) }
        case .universalAdId: if !universalAdIds.isEmpty { return .list(universalAdIds) }
        case .adType: if let adType { return .text(adType) }
        case .podSequence: if let podSequence { return .text(String(podSequence)) }
        case .adCount: if let adCount { return .text(String(adCount)) }
        case .transactionID: if let transactionID { return .text(transactionID) }
        case .adCategories: if !adCategories.isEmpty { return .list(adCategories) }
        case .configured: break
        }
        return extra[name].map { .configured($0, for: name) }
    }

    /// Raw (unencoded) values by macro name; `MacroExpander` encodes them.
    public var values: [String: MacroValue] {
        var values: [String: MacroValue] = [:]
        for (name, raw) in extra { values[name] = .configured(raw, for: name) }
        values["CACHEBUSTING"] = .text(cacheBuster)
        for legacy in VASTMacroNames.legacyCacheBusters { values[legacy] = .text(cacheBuster) }
        values["TIMESTAMP"] = .text(MacroFormat.timestamp(millisecondsSince1970: timestampMilliseconds, offsetMinutes: timeZoneOffsetMinutes))
        if let adPlayhead {
            let text = MacroFormat.playhead(adPlayhead)
            values["ADPLAYHEAD"] = .text(text)
            // No content around a rewarded ad: vplay reports the ad's playhead for the content playhead macros too
            // (VAST 3's CONTENTPLAYHEAD is what the Adcash template uses for "video progress").
            values["CONTENTPLAYHEAD"] = values["CONTENTPLAYHEAD"] ?? .text(text)
            values["MEDIAPLAYHEAD"] = values["MEDIAPLAYHEAD"] ?? .text(text)
        }
        if let assetURI { values["ASSETURI"] = .text(assetURI) }
        if let errorCode { values["ERRORCODE"] = .text(String(errorCode)) }
        if let reason { values["REASON"] = .text(String(reason)) }
        if let adServingId { values["ADSERVINGID"] = .text(adServingId) }
        if !universalAdIds.isEmpty { values["UNIVERSALADID"] = .list(universalAdIds) }
        if let adType { values["ADTYPE"] = .text(adType) }
        if let podSequence { values["PODSEQUENCE"] = .text(String(podSequence)) }
        if let adCount { values["ADCOUNT"] = .text(String(adCount)) }
        if let transactionID { values["TRANSACTIONID"] = .text(transactionID) }
        values["PLAYERSTATE"] = .list(playerState)
        if !adCategories.isEmpty { values["ADCATEGORIES"] = .list(adCategories) }
        return values
    }
}
