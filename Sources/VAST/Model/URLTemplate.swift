/// Helpers for VAST URL templates (URLs that may contain `[MACRO]`s).
public enum URLTemplate {
    /// Whether a URL should be requested at all: not empty/whitespace and not `about:blank` (case-insensitive),
    /// which the spec uses to mean "do not dispatch".
    public static func isFireable(_ url: String) -> Bool {
        let trimmed = url.trimmingCharacters(in: .whitespacesAndNewlines)
        return !trimmed.isEmpty && trimmed.lowercased() != "about:blank"
    }

    /// Every `[NAME]` in the template, in order of appearance (duplicates kept). `NAME` is letters, digits and `_`
    /// starting with a letter or `_`, so IPv6 literals like `[::1]` are not macros.
    public static func macros(in url: String) -> [String] {
        var result: [String] = []
        var index = url.startIndex
        while let open = url[index...].firstIndex(of: "[") {
            let afterOpen = url.index(after: open)
            guard let close = url[afterOpen...].firstIndex(of: "]") else { break }
            let name = url[afterOpen..<close]
            if let first = name.first, first.isLetter || first == "_",
               name.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" }) {
                result.append(String(name))
                index = url.index(after: close)
            } else {
                index = afterOpen
            }
        }
        return result
    }

    /// The `[NAME]`s of a template that are not VAST 4.x macros (see `MacroCatalog`), in order, without duplicates.
    /// Matching is case-sensitive, like the spec and vast-client-js: `[cachebusting]` is unknown.
    public static func unknownMacros(in url: String) -> [String] {
        var seen = Set<String>()
        return macros(in: url).filter { !MacroCatalog.isKnown($0) && seen.insert($0).inserted }
    }
}
