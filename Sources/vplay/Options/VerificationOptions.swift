import AdSession
import ArgumentParser

/// Viewability (`<ViewableImpression>`) and verification (`<AdVerifications>`) as the player reports them. Taken by
/// `run` and `fleet`.
struct VerificationOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Viewability: auto (measured when the ad has <ViewableImpression> URLs, default), measured (Viewable or NotViewable by the MRC rule: 50 % in view for 2 continuous seconds of played video), undetermined (ViewUndetermined when the ad ends) or off.", valueName: "mode"))
    var viewability: SessionConfiguration.ViewabilityMode = .auto

    @Option(help: ArgumentHelp("The verification vendors the player allows: a <Verification> of any other vendor is rejected (verificationNotExecuted with [REASON] 1).", valueName: "vendor,..."),
            transform: Self.vendors)
    var verificationAllow: [String]?

    @Flag(help: "Fetch (never run) each verification's JavaScriptResource: one that cannot be loaded (malformed URL, 404, timeout) gets [REASON] 3.")
    var verificationProbe = false

    @Sendable static func vendors(_ text: String) throws -> [String] {
        let vendors = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !vendors.isEmpty else { throw ValidationError("--verification-allow needs at least one vendor (e.g. company.com-omid)") }
        return vendors
    }

    func apply(to configuration: inout SessionConfiguration) {
        configuration.viewability = viewability
        configuration.verificationAllow = verificationAllow
        configuration.verificationProbe = verificationProbe
    }
}

extension SessionConfiguration.ViewabilityMode: ExpressibleByArgument {}
