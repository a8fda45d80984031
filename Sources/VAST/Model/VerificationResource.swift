/// A `<JavaScriptResource>` or `<ExecutableResource>` of a `<Verification>`.
public struct VerificationResource: Sendable, Hashable, Codable {
    /// `apiFramework` attribute, e.g. `omid`.
    public var apiFramework: String?
    /// `browserOptional` attribute (JavaScript only): `true` means it can run outside a browser.
    public var browserOptional: Bool?
    /// `type` attribute (Executable only).
    public var type: String?
    /// The script URL.
    public var url: String

    public init(apiFramework: String?, browserOptional: Bool?, type: String?, url: String) {
        self.apiFramework = apiFramework
        self.browserOptional = browserOptional
        self.type = type
        self.url = url
    }
}
