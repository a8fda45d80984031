import Foundation

extension HARDocument.Cookie {
    /// The cookie a `Set-Cookie` field value sets (RFC 6265 §5.2): `name=value`, then `Path`, `Domain`, `Expires`
    /// (an HTTP date) or `Max-Age` (seconds from `receivedAt`, ms since 1970; it wins over `Expires`), `HttpOnly`,
    /// `Secure`. Nil when the value has no `=` before its first `;` or an empty name.
    init?(setCookie value: String, receivedAt: Int64) {
        var parts = value.split(separator: ";", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        self.init(name: name, value: pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces))
        var maxAge: Int64?
        for attribute in parts where !attribute.isEmpty {
            let key = attribute.prefix { $0 != "=" }.trimmingCharacters(in: .whitespaces).lowercased()
            let argument = attribute.firstIndex(of: "=").map { attribute[attribute.index(after: $0)...].trimmingCharacters(in: .whitespaces) } ?? ""
            switch key {
            case "path": path = argument
            case "domain": domain = argument
            case "expires":
                if let date = Self.httpDate(argument), abs(date.timeIntervalSince1970) < 1e12 { expires = HARDocument.dateTime(Int64((date.timeIntervalSince1970 * 1000).rounded())) }
            case "max-age": maxAge = Int64(argument).map { min(max($0, -1_000_000_000), 100_000_000_000) }
            case "httponly": httpOnly = true
            case "secure": secure = true
            default: break
            }
        }
        if let maxAge { expires = HARDocument.dateTime(receivedAt + maxAge * 1000) }
    }

    /// An HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`, also with dashes as old servers write it).
    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEE, dd-MMM-yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
