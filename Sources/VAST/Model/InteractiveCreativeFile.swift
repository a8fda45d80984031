/// `<InteractiveCreativeFile>` (VAST 4.0; SIMID in 4.2; may be a data URI in 4.3).
public struct InteractiveCreativeFile: Sendable, Hashable, Codable {
    /// `type` attribute (MIME).
    public var type: String?
    /// `apiFramework` attribute, e.g. `SIMID`.
    public var apiFramework: String?
    /// `variableDuration` attribute.
    public var variableDuration: Bool?
    /// The file URL.
    public var url: String

    public init(type: String?, apiFramework: String?, variableDuration: Bool?, url: String) {
        self.type = type
        self.apiFramework = apiFramework
        self.variableDuration = variableDuration
        self.url = url
    }
}
