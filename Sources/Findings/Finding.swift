/// A problem one rule found: what every warning and error vplay prints is, with the rule's ID in front.
public struct Finding: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The rule's ID (a `Rule.id` of the catalogue).
    public var rule: String
    /// What is wrong, for humans.
    public var message: String
    /// Where in the document: a slash path of element names (`VAST/Ad[1]/InLine/Creatives/Creative[1]/Linear`),
    /// prefixed with the wrapper hop (`hop 1: …`) after resolution; nil when the finding is not about one element.
    public var path: String?

    public init(_ rule: Rule, _ message: String, path: String? = nil) {
        self.init(ruleID: rule.id, message, path: path)
    }

    public init(ruleID: String, _ message: String, path: String? = nil) {
        self.rule = ruleID
        self.message = message
        self.path = path
    }

    /// `ID at PATH: message`, or `ID: message`.
    public var description: String {
        path.map { "\(rule) at \($0): \(message)" } ?? "\(rule): \(message)"
    }
}
