/// RFC 3986 percent-encoding of a macro value, shared by the beacon macro expander (TrackingBeacons) and the
/// wrapper resolver (VAST), which fills `[BLOCKEDADCATEGORIES]` from the chain before the session's expansion.
public enum PercentEncoding {
    /// Everything but unreserved characters (`A–Z a–z 0–9 - . _ ~`) is encoded, so `00:00:05.000` becomes
    /// `00%3A00%3A05.000` and a URL value cannot break out of its query parameter.
    public static func rfc3986(_ value: String) -> String {
        var out = ""
        out.reserveCapacity(value.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in value.utf8 {
            switch byte {
            case 65...90, 97...122, 48...57, 45, 46, 95, 126: out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out.unicodeScalars.append(Unicode.Scalar(37))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte >> 4)]))
                out.unicodeScalars.append(Unicode.Scalar(hex[Int(byte & 0x0F)]))
            }
        }
        return out
    }

    /// A list macro's value (VAST 4.x §6.1): each element encoded on its own, joined with a literal `,`.
    public static func list(_ items: [String]) -> String {
        items.map(rfc3986).joined(separator: ",")
    }
}
