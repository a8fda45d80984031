import ArgumentParser

/// `--macro NAME=VALUE`: a device or app macro's value (`APPBUNDLE=com.game.app`).
struct DeviceMacro: Equatable, Sendable {
    var name: String
    var value: String

    init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Parses `NAME=VALUE`, split at the first `=`, with a NAME of upper-case letters, digits and `_`.
    init(parsing text: String) throws {
        guard let equals = text.firstIndex(of: "="), case let name = String(text[..<equals]),
              !name.isEmpty, name.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) else {
            throw ValidationError("--macro \(text): expected NAME=VALUE with an upper-case NAME")
        }
        self.init(name: name, value: String(text[text.index(after: equals)...]))
    }
}
