/// A VMAP failure and its code (VMAP 1.0.1 §2.5, Table 3): what `[ERROR_CODE]` carries to a break's `error` tracking.
/// VAST failures inside a break keep their VAST codes (`VASTError`).
public struct VMAPError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// VMAP schema error.
        case schema = 1000
        /// VMAP version of the response not supported.
        case version = 1001
        /// VMAP parsing error.
        case parsing = 1002
        /// AdBreak type not supported.
        case breakType = 1003
        /// General ad response document error.
        case adResponse = 1004
        /// Ad response template type not supported.
        case templateType = 1005
        /// Ad response document extraction or parsing error.
        case extraction = 1006
        /// Ad response document retrieval timeout.
        case retrievalTimeout = 1007
        /// Ad response document retrieval error (e.g. Http server responded with error code).
        case retrieval = 1008
    }

    public var code: Code
    /// What went wrong, in words (`[ERROR_MESSAGE]`, and the report).
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "VMAP \(code.rawValue): \(message)" }
}
