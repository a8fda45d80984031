/// Which companion a rewarded player shows as the end card, why, and which other companions' tracking fires with it.
///
/// The rule, from the InLine out (VAST: "on conflict, prefer the creative closest to the InLine"):
/// 1. the InLine's companions with a resource: the one with `renderingMode="end-card"` (VAST 4.1), else the first;
/// 2. when the InLine has none, the wrappers' companions with a resource, the closest wrapper to the InLine first,
///    by the same rule.
///
/// A wrapper does not take the end card away from the InLine: a wrapper's companion *with* a resource that *matches*
/// the chosen one (the same `adSlotId` when both have one, else the same `width`×`height`) is the wrapper's view of the
/// same slot, so its `creativeView` and `CompanionClickTracking` fire with the end card. Tracking-only wrapper
/// companions (no resource) fire with whichever companion is shown (`ResolvedAd.companionCreativeView`).
public struct EndCardChoice: Sendable, Hashable {
    /// The companion shown.
    public var companion: Sourced<Companion>
    /// Why it was chosen, in words (`inspect` prints it).
    public var reason: String
    /// Wrapper companions with a resource that match it: their tracking fires with it.
    public var matching: [Sourced<Companion>]

    /// The end card of `ad`, or nil when no companion has a resource.
    public init?(_ ad: ResolvedAd) {
        let shown = ad.companions.filter { !$0.value.resources.isEmpty }
        let inLine = shown.filter { $0.source == .inline }
        // Wrappers, the closest to the InLine (deepest) first; document order within one.
        let wrappers = shown.filter { $0.source != .inline }.enumerated()
            .sorted { (-$0.element.source.chainDepth, $0.offset) < (-$1.element.source.chainDepth, $1.offset) }.map(\.element)
        let chosen: Sourced<Companion>
        if let card = inLine.first(where: Self.isEndCard) {
            chosen = card
            reason = "the InLine's companion with renderingMode=\"end-card\""
        } else if let first = inLine.first {
            chosen = first
            reason = "the InLine's first companion with a resource (none has renderingMode=\"end-card\")"
        } else if let card = wrappers.first(where: Self.isEndCard) {
            chosen = card
            reason = "no InLine companion has a resource; \(card.source)'s companion with renderingMode=\"end-card\""
        } else if let first = wrappers.first {
            chosen = first
            reason = "no InLine companion has a resource; \(first.source)'s first companion with a resource (the wrapper closest to the InLine)"
        } else {
            return nil
        }
        companion = chosen
        let others = wrappers.filter { $0 != chosen && Self.matches($0.value, chosen.value) }
        // Chain order, as every merged list: outermost wrapper first.
        matching = others.sorted { $0.source.chainDepth < $1.source.chainDepth }
        if inLine.count + wrappers.count > 1 {
            let passed = inLine.count + wrappers.count - 1 - matching.count
            if !matching.isEmpty { reason += "; \(matching.count) matching wrapper companion(s) fire their tracking with it" }
            if passed > 0 { reason += "; \(passed) other companion(s) not shown" }
        }
    }

    private static func isEndCard(_ companion: Sourced<Companion>) -> Bool {
        companion.value.renderingMode?.trimmingCharacters(in: .whitespaces).lowercased() == "end-card"
    }

    /// The same slot: the same `adSlotId` when both have one, else the same size (both given).
    static func matches(_ a: Companion, _ b: Companion) -> Bool {
        if let x = a.adSlotId, let y = b.adSlotId, !x.isEmpty, !y.isEmpty { return x == y }
        guard let w = a.width, let h = a.height else { return false }
        return w == b.width && h == b.height
    }
}
