import Foundation

/// ANSI colour for people at a terminal: on when stdout is a terminal and `NO_COLOR` is unset or empty
/// (no-color.org: "when present and not an empty string"), off when piped, in JSON mode, or with `NO_COLOR`.
struct Style: Sendable {
    let enabled: Bool

    static func detect(json: Bool) -> Style {
        Style(enabled: !json && isatty(STDOUT_FILENO) == 1 && (ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty)
    }

    func green(_ text: String) -> String { wrap(text, "32") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func cyan(_ text: String) -> String { wrap(text, "36") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func bold(_ text: String) -> String { wrap(text, "1") }

    private func wrap(_ text: String, _ code: String) -> String { enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text }
}
