/// The VAST 4.x macro names (IAB `vast4macros/data/macros-data.json`, VAST-FACTS.md §1.6): one list, used by the
/// parser's warnings (VAST) and by the expander (TrackingBeacons).
///
/// A known macro vplay has no value for is sent as `-1` ("unknown", VAST 4.x §6.1), as the peer vast-client-js does
/// for its supported macros; only names that are not VAST macros stay as written.
public enum VASTMacroNames {
    /// Every macro of the IAB VAST 4.x list (52 names) plus `PLAYBACKMETHODS` (VAST 4.3).
    public static let names: Set<String> = [
        "TIMESTAMP", "CACHEBUSTING", "CONTENTPLAYHEAD", "MEDIAPLAYHEAD", "BREAKPOSITION", "BLOCKEDADCATEGORIES",
        "ADCATEGORIES", "ADCOUNT", "TRANSACTIONID", "PLACEMENTTYPE", "ADTYPE", "UNIVERSALADID", "BREAKMAXDURATION",
        "BREAKMAXADS", "BREAKMINADLENGTH", "BREAKMAXADLENGTH", "IFA", "IFATYPE", "CLIENTUA", "SERVERUA", "DEVICEUA",
        "SERVERSIDE", "DEVICEIP", "LATLONG", "DOMAIN", "PAGEURL", "APPBUNDLE", "VASTVERSIONS", "APIFRAMEWORKS",
        "EXTENSIONS", "VERIFICATIONVENDORS", "OMIDPARTNER", "MEDIAMIME", "PLAYERCAPABILITIES", "CLICKTYPE",
        "PLAYERSTATE", "INVENTORYSTATE", "PLAYERSIZE", "ADPLAYHEAD", "ASSETURI", "CONTENTID", "CONTENTURI",
        "PODSEQUENCE", "ADSERVINGID", "CLICKPOS", "ERRORCODE", "REASON", "LIMITADTRACKING", "REGULATIONS",
        "GDPRCONSENT", "STOREID", "STOREURL", "PLAYBACKMETHODS",
    ]

    /// Macros whose value is a list (`Array<…>` in the IAB list): each element is encoded on its own and the elements
    /// are joined with an unencoded `,` (VAST 4.x §6.1), e.g. `PLAYERSIZE` → `390,844`.
    public static let listValued: Set<String> = [
        "BLOCKEDADCATEGORIES", "ADCATEGORIES", "UNIVERSALADID", "LATLONG", "VASTVERSIONS", "APIFRAMEWORKS",
        "EXTENSIONS", "VERIFICATIONVENDORS", "MEDIAMIME", "PLAYERCAPABILITIES", "PLAYERSTATE", "INVENTORYSTATE",
        "PLAYERSIZE", "CLICKPOS", "REGULATIONS", "PLAYBACKMETHODS",
    ]

    /// Name prefixes of macro families newer than the pinned list (`GPP…` privacy strings, `DSA…` Digital Services
    /// Act fields), accepted as known so new tags do not warn spuriously.
    public static let knownPrefixes: [String] = ["GPP", "DSA"]

    /// Cache busters older players (and the peer vast-client-js) expand though they are not VAST 4.x macros:
    /// `[RANDOM]`, `[random]` and `%%RANDOM%%`, ubiquitous in older tags. Each gets the value `[CACHEBUSTING]` has
    /// for the same URL; the parser notes that they are not VAST 4.x macros.
    public static let legacyCacheBusters: Set<String> = ["RANDOM", "random"]

    /// What a known macro without a value is replaced with: "-1 = unknown" (VAST 4.x §6.1).
    public static let unknownValue = "-1"

    /// Whether `name` (without brackets) is a VAST macro. Case-sensitive, as in the spec.
    public static func isKnown(_ name: String) -> Bool {
        names.contains(name) || knownPrefixes.contains { name.hasPrefix($0) }
    }
}
