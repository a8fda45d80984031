import Foundation

/// A capture's requests assigned to tracking URLs as written (macros and all): each request to the first template
/// it matches (`TemplateMatcher`), in capture order; requests that match none and look like tracking (to a host of
/// the templates, or a tracking-looking path) kept apart. Times outside 1970…9999 are no time
/// (`CapturedRequest.time`), however the requests were made. The one matching pass of `BeaconAudit` and
/// `TrackingDocumentAudit`.
struct CaptureAssignment {
    /// A request matched to a template, with the values its macros had.
    typealias Hit = (request: CapturedRequest, macros: [String: String])

    /// Per template, the requests matched to it.
    var seen: [[Hit]]
    /// Every request matched, with its template's index, in capture order.
    var matched: [(request: CapturedRequest, tracker: Int)] = []
    /// Requests that look like tracking and match no template (and any over `TemplateMatcher.maxURLLength`).
    var unmatched: [CapturedRequest] = []

    init(_ requests: [CapturedRequest], to templates: [String]) {
        let matchers = templates.map { TemplateMatcher($0) }
        seen = Array(repeating: [], count: templates.count)
        let hosts = Set(templates.compactMap { URLComponents(string: $0)?.host?.lowercased() })
        for var request in requests {
            request.sentAt = CapturedRequest.time(request.sentAt)
            // Read once, matched against every template.
            guard let capture = TemplateMatcher.Capture(request.url) else {
                // Over `TemplateMatcher.maxURLLength`: never matched, always listed (a hostile capture's).
                if request.url.utf8.count > TemplateMatcher.maxURLLength { unmatched.append(request) }
                continue
            }
            var hit: (Int, [String: String])?
            for (index, matcher) in matchers.enumerated() {
                if let macros = matcher?.match(capture) { hit = (index, macros); break }
            }
            if let (index, macros) = hit {
                seen[index].append((request, macros))
                matched.append((request, index))
            } else if BeaconAudit.looksLikeTracking(capture, planHosts: hosts) {
                unmatched.append(request)
            }
        }
    }
}
