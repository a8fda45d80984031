import Primitives

/// The beacon log's JSON Lines form (`--beacons FILE`): one object per attempt. Times in seconds to the microsecond
/// (playhead, clock, latency), the instant `sentAt` as ISO 8601 UTC with milliseconds. `requestedURL` appears when the request went elsewhere than `url` (the
/// embedded sink), `redirects` when redirects were followed, `ad` (the ad's place in its pod) in a pod, `errorCode` (`BeaconFailure.code`, stable) with `error`.
extension BeaconRecord: Encodable {
    private enum Keys: String, CodingKey {
        case event, source, template, url, playhead, clock, sentAt, attempt, finalAttempt, status, latency, bytes, error, errorCode, unknownMacros, dryRun, delivered
        case requestedURL, redirects, ad
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(event, forKey: .event)
        try c.encode(source, forKey: .source)
        try c.encode(template, forKey: .template)
        try c.encode(url, forKey: .url)
        try c.encode(Self.seconds(playhead), forKey: .playhead)
        try c.encode(Self.seconds(clock), forKey: .clock)
        try c.encode(sentAt.map { ISO8601Time.text(milliseconds: $0) }, forKey: .sentAt)
        try c.encode(attempt, forKey: .attempt)
        try c.encode(isFinalAttempt, forKey: .finalAttempt)
        try c.encode(status, forKey: .status)
        try c.encode(latency.map(Self.seconds), forKey: .latency)
        try c.encode(bytes, forKey: .bytes)
        try c.encode(error, forKey: .error)
        if let failure { try c.encode(failure.code, forKey: .errorCode) }
        if !unknownMacros.isEmpty { try c.encode(unknownMacros, forKey: .unknownMacros) }
        try c.encode(dryRun, forKey: .dryRun)
        try c.encode(delivered, forKey: .delivered)
        if let requestedURL, requestedURL != url { try c.encode(requestedURL, forKey: .requestedURL) }
        if !redirects.isEmpty { try c.encode(redirects, forKey: .redirects) }
        if let ad = planned.ad { try c.encode(ad, forKey: .ad) }
    }

    /// Seconds rounded to the microsecond.
    static func seconds(_ duration: Duration) -> Double { duration.microsecondSeconds }
}
