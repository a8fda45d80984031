/// The VAST macro names (VAST-FACTS.md §1.6; IAB `vast4macros/data/macros-data.json`).
public enum MacroCatalog {
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

    /// Name prefixes of macro families newer than the pinned list (`GPP…` privacy strings and `DSA…` Digital
    /// Services Act fields, VAST-FACTS.md §1.6). Accepted as known so new tags do not warn spuriously.
    public static let knownPrefixes: [String] = ["GPP", "DSA"]

    /// Whether `name` (without brackets) is a VAST macro. Case-sensitive.
    public static func isKnown(_ name: String) -> Bool {
        names.contains(name) || knownPrefixes.contains { name.hasPrefix($0) }
    }
}
