import Foundation

/// The lint config file: TOML, one table, `[rules]`, whose keys are rule IDs (quoted: the IDs hold dots) or patterns
/// ending in `*`, and whose values are `"error"`, `"warning"`, `"info"` or `"off"`. Comments (`#`) and blank lines
/// are allowed; nothing else is read, and anything else is refused with its line:
///
/// ```toml
/// # .vplay-lint.toml
/// [rules]
/// "VAST-4.1-adservingid-present" = "warning"
/// "VPLAY-media-moov-after-mdat" = "error"
/// "VPLAY-verification-*" = "off"
/// ```
///
/// `vplay lint` reads `.vplay-lint.toml` in the working directory, or the file `--config` names.
public enum RuleConfig {
    /// The name looked for in the working directory.
    public static let defaultName = ".vplay-lint.toml"

    /// The policy `text` (from `file`, for messages) sets on top of `policy`.
    public static func apply(_ text: String, file: String, to policy: inout RulePolicy, catalogue: RuleCatalogue) throws(RulePolicyError) {
        var inRules = false
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = offset + 1
            let content = stripComment(String(raw)).trimmingCharacters(in: .whitespaces)
            if content.isEmpty { continue }
            if content.hasPrefix("[") {
                guard content == "[rules]" else { throw .config(file: file, line: line, "only a [rules] table is read, not \(content)") }
                inRules = true
                continue
            }
            guard inRules else { throw .config(file: file, line: line, "a setting before the [rules] table") }
            guard let equals = content.firstIndex(of: "=") else { throw .config(file: file, line: line, "not KEY = \"LEVEL\"") }
            let key = unquote(content[..<equals].trimmingCharacters(in: .whitespaces))
            let value = content[content.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else {
                throw .config(file: file, line: line, "the level must be a quoted string (\"error\", \"warning\", \"info\" or \"off\")")
            }
            do {
                try policy.set(key, to: String(value.dropFirst().dropLast()), in: catalogue)
            } catch {
                throw .config(file: file, line: line, error.description)
            }
        }
    }

    private static func stripComment(_ line: String) -> String {
        var quoted = false
        for (index, character) in zip(line.indices, line) {
            if character == "\"" { quoted.toggle() }
            if character == "#" && !quoted { return String(line[..<index]) }
        }
        return line
    }

    private static func unquote(_ key: String) -> String {
        key.count >= 2 && key.hasPrefix("\"") && key.hasSuffix("\"") ? String(key.dropFirst().dropLast()) : key
    }
}
