import Findings

/// vplay's client-side rule for when a tracked stream's events are due, from the spans the document gives: an ad's
/// `impression`, `start`, `creativeView` and `loaded` at its start, its quartiles at 25, 50 and 75 % of its
/// duration, `complete` at its end; an avail's `breakStart` at its start and `breakEnd` at its end. The document's
/// own times are what fires (a player follows them); where they stray from the rule by more than the millisecond
/// the document rounds to, a finding says so, as does an ad outside its avail or an event outside its ad.
struct TrackedStreamRules {
    let avail: TrackingDocument.Avail
    let number: Int

    /// The rule's time for an event of `type` (of `ad`, or of the avail when nil); nil when the rule does not time it.
    func time(of type: String, ad: TrackingDocument.Ad?) -> Duration? {
        guard let ad else {
            switch type {
            case "breakStart": return avail.start
            case "breakEnd": return avail.duration > .zero ? avail.end : nil
            default: return nil
            }
        }
        return Self.due(type, start: ad.start, duration: ad.duration)
    }

    /// When an event of `type` is due in an ad of `duration` that starts at `start`: its first four types at the
    /// start, the quartiles at 25, 50 and 75 %, `complete` at the end; nil for the types no time rules.
    static func due(_ type: String, start: Duration, duration: Duration) -> Duration? {
        let quarter: Int64? = switch type {
        case "impression", "start", "creativeView", "loaded": 0
        case "firstQuartile": 1
        case "midpoint": 2
        case "thirdQuartile": 3
        case "complete": 4
        default: nil
        }
        guard let quarter else { return nil }
        return start + .milliseconds((duration.wholeMilliseconds * quarter + 2) / 4)
    }

    /// Ads outside their avail, events of an ad outside its span.
    func findings() -> [Finding] {
        var found: [Finding] = []
        let slack: Duration = .milliseconds(1)
        for (index, ad) in avail.ads.enumerated() {
            let name = "avail \(number) ad \(index + 1)" + (ad.adID.map { " (\($0))" } ?? "")
            if avail.duration > .zero, ad.start + slack < avail.start || ad.end > avail.end + slack {
                found.append(Finding(.ssaiSpan, "\(name) runs \(ad.start.seconds)–\(ad.end.seconds) s, outside its avail (\(avail.start.seconds)–\(avail.end.seconds) s)"))
            }
            for event in ad.events where TrackingDocument.timedTypes.contains(event.type) && (event.start + slack < ad.start || event.start > ad.end + slack) {
                found.append(Finding(.ssaiSpan, "\(name): \(event.type) is due at \(event.start.seconds) s, outside the ad (\(ad.start.seconds)–\(ad.end.seconds) s)"))
            }
            if ad.events.contains(where: { $0.beaconURLs.isEmpty }) {
                found.append(Finding(.ssaiNoBeacon, "\(name): \(ad.events.filter(\.beaconURLs.isEmpty).map(\.type).joined(separator: ", ")) list(s) no beacon URL"))
            }
        }
        return found
    }

    /// Events whose document time strays from the rule by more than a millisecond.
    func offRule(breakEvents: [TrackedStreamReport.EventReport], ads: [TrackedStreamReport.AdReport]) -> [Finding] {
        let tagged = breakEvents.map { ("avail \(number)", $0) } + ads.flatMap { ad in ad.events.map { ("avail \(number) ad \(ad.number)", $0) } }
        return tagged.compactMap { name, event in
            guard let rule = event.ruleTime, abs((event.documentTime - rule).wholeMilliseconds) > 1 else { return nil }
            return Finding(.ssaiEventTime, "\(name): \(event.type) is due at \(event.documentTime.seconds) s by the document, \(rule.seconds) s by the ad's span; it fires at the document's time")
        }
    }
}
