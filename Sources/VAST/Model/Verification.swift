/// One `<Verification>` of `<AdVerifications>` (Open Measurement and similar).
public struct Verification: Sendable, Hashable, Encodable {
    /// `vendor` attribute, `domain-useCase` such as `company.com-omid`.
    public var vendor: String?
    /// `<JavaScriptResource>` elements.
    public var javaScriptResources: [VerificationResource]
    /// `<ExecutableResource>` elements.
    public var executableResources: [VerificationResource]
    /// `<VerificationParameters>`, verbatim (trimmed).
    public var parameters: String?
    /// `<TrackingEvents>`; the only defined event is `verificationNotExecuted` (with `[REASON]`).
    public var tracking: [TrackingEvent]

    public init(vendor: String?, javaScriptResources: [VerificationResource] = [],
                executableResources: [VerificationResource] = [], parameters: String? = nil,
                tracking: [TrackingEvent] = []) {
        self.vendor = vendor
        self.javaScriptResources = javaScriptResources
        self.executableResources = executableResources
        self.parameters = parameters
        self.tracking = tracking
    }
}
