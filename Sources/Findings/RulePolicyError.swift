/// Why a severity setting (`--rule`, the config file) was refused: a usage error (exit 2).
public enum RulePolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    case badSetting(String)
    case badLevel(key: String, level: String)
    case unknownRule(String)
    /// The config file: its line, and what is wrong there.
    case config(file: String, line: Int, String)

    public var description: String {
        switch self {
        case let .badSetting(text): "\"\(text)\" is not ID=LEVEL (LEVEL: error, warning, info or off)"
        case let .badLevel(key, level): "\(key): \"\(level)\" is not error, warning, info or off"
        case let .unknownRule(key): "\(key) names no rule (vplay rules lists them)"
        case let .config(file, line, why): "\(file):\(line): \(why)"
        }
    }
}
