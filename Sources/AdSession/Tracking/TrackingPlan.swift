import PlayerEngine
import TrackingBeacons
import VAST

/// Which tracking URLs each session event fires, from the resolved ad (InLine and every wrapper, in chain order).
/// Made once per ad and shared by reference: every session of a fleet reads the same plan, and passing it around
/// costs one reference count, not a copy of the ad and its tables.
final class TrackingPlan: Sendable {
    struct Target: Sendable {
        /// The name the beacon log uses (`impression`, `start`, `progress`, `clickTracking`, …).
        var event: String
        /// The URL as written, scanned for its macros once.
        let template: MacroTemplate
        let source: TrackingSource
        /// `source.description`, as beacons and counts name it: made once (a wrapper's is an interpolated string,
        /// which every beacon of a fleet would otherwise make again).
        let sourceName: String
        /// A progress URL's offset, resolved against the media's duration (the beacon record's `offset`).
        var offset: Duration? = nil
        /// An OpenRTB bid's notice with `${AUCTION_IMP_TS}`: filled with the moment it fires (`BeaconPlanner.plan`).
        let firesAuctionTime: Bool

        init(event: String, url: String, source: TrackingSource, offset: Duration? = nil) {
            self.event = event
            template = MacroTemplate(url)
            self.source = source
            sourceName = source.description
            self.offset = offset
            firesAuctionTime = source == .bid && url.contains(Self.auctionTime)
        }

        /// `${AUCTION_IMP_TS}` as a notice's URL writes it.
        static let auctionTime = "${\(AuctionMacros.impressionTime)}"

        var url: String { template.text }
    }

    let ad: ResolvedAd
    /// Progress offsets resolved against the media's duration, each with its URLs.
    let progress: [(at: Duration, targets: [Target])]
    /// The companion shown as the end card, and the wrapper companions whose tracking fires with it
    /// (`EndCardChoice`: the InLine's first, `renderingMode="end-card"` preferred).
    let endCard: EndCardChoice?
    /// The icons a session shows, in merge order (`ShownIcon.choose`).
    let icons: [ShownIcon]
    /// What each event fires (but `progress`), by `PlaybackEvent.Name.allCases` order; what each icon's
    /// `iconShown` and `iconClick` fire, by icon. Made once with the plan: a fleet's sessions share them.
    private let byName: [[Target]]
    private let byIcon: [(shown: [Target], click: [Target])]

    /// The duration quartiles are computed on.
    let duration: Duration

    init(ad: ResolvedAd, duration: Duration) {
        self.duration = duration
        var byOffset: [Duration: [Target]] = [:]
        for tracking in ad.tracking(for: .progress) {
            guard let offset = tracking.offset else { continue }
            let at = offset.resolve(against: duration)
            byOffset[at, default: []].append(Target(event: "progress", url: tracking.url, source: tracking.source, offset: at))
        }
        let making = Making(ad: ad, endCard: EndCardChoice(ad), icons: ShownIcon.choose(ad.icons))
        (self.ad, progress, endCard, icons) = (ad, byOffset.keys.sorted().map { ($0, byOffset[$0]!) }, making.endCard, making.icons)
        byName = PlaybackEvent.Name.allCases.map { name in
            name == .progress || name == .iconShown || name == .iconClick ? [] : making.made(for: PlaybackEvent(name: name, playhead: .zero, clock: .zero))
        }
        byIcon = making.icons.indices.map { index in
            var event = PlaybackEvent(name: .iconShown, playhead: .zero, clock: .zero)
            event.icon = index
            let shown = making.made(for: event)
            event.name = .iconClick
            return (shown, making.made(for: event))
        }
    }

    private init(_ plan: TrackingPlan, byName: [[Target]]) {
        (ad, progress, endCard, icons, duration) = (plan.ad, plan.progress, plan.endCard, plan.icons, plan.duration)
        (self.byName, byIcon) = (byName, plan.byIcon)
    }

    /// This plan with `targets` fired by `event` too, after the ad's own (an OpenRTB bid's billing notice).
    func adding(_ targets: [Target], to event: PlaybackEvent.Name) -> TrackingPlan {
        var byName = self.byName
        byName[event.ordinal] += targets
        return TrackingPlan(self, byName: byName)
    }

    /// The URLs `event` fires, `about:blank` and empty ones already dropped by the parser.
    func targets(for event: PlaybackEvent) -> [Target] {
        switch event.name {
        case .progress:
            guard let offset = event.offset else { return [] }
            return progress.first { $0.at == offset }?.targets ?? []
        case .iconShown: return event.icon.flatMap { byIcon.indices.contains($0) ? byIcon[$0].shown : nil } ?? []
        case .iconClick: return event.icon.flatMap { byIcon.indices.contains($0) ? byIcon[$0].click : nil } ?? []
        default: return byName[event.name.ordinal]
        }
    }

    var progressOffsets: [Duration] { progress.map(\.at) }

    func icon(at index: Int) -> ShownIcon? { Self.icon(at: index, in: icons) }

    static func icon(at index: Int, in icons: [ShownIcon]) -> ShownIcon? { icons.indices.contains(index) ? icons[index] : nil }
}

extension TrackingPlan {
    /// The plan's parts while it is made: what each event fires is worked out from them once.
    private struct Making {
        let ad: ResolvedAd
        let endCard: EndCardChoice?
        let icons: [ShownIcon]

        func icon(at index: Int) -> ShownIcon? { TrackingPlan.icon(at: index, in: icons) }

        /// The URLs `event` fires, made from the ad (`targets(for:)` looks them up).
        func made(for event: PlaybackEvent) -> [Target] {
            switch event.name {
            case .impression:
                return ad.impressions.map { Target(event: "impression", url: $0.url, source: $0.source) }
            case .click:
                return ad.clickTracking.map { Target(event: "clickTracking", url: $0.url, source: $0.source) }
            case .closeLinear:
                // The peer falls back to `close` URLs when a linear ad has no closeLinear ones; so do we.
                let linear = linearTargets(.closeLinear)
                return linear.isEmpty ? linearTargets(.close, as: "closeLinear") : linear
            case .endCardShown:
                guard let card = endCard else { return [] }
                let own = ([card.companion] + card.matching).flatMap { shown in
                    shown.value.tracking.filter { $0.event == .creativeView }.map { Target(event: "companion.creativeView", url: $0.url, source: shown.source) }
                }
                return TrackingPlan.inChainOrder(own + ad.companionCreativeView.map { Target(event: "companion.creativeView", url: $0.url, source: $0.source) })
            case .endCardClick:
                guard let card = endCard else { return [] }
                let own = ([card.companion] + card.matching).flatMap { shown in
                    shown.value.clickTracking.map { Target(event: "companion.clickTracking", url: $0.url, source: shown.source) }
                }
                return TrackingPlan.inChainOrder(own + ad.companionClickTracking.map { Target(event: "companion.clickTracking", url: $0.url, source: $0.source) })
            case .loaded, .creativeView, .start, .firstQuartile, .midpoint, .thirdQuartile, .complete,
                 .pause, .resume, .mute, .unmute, .skip, .rewind:
                return linearTargets(TrackingEventName(event.name.rawValue))
            case .iconShown:
                guard let icon = event.icon.flatMap(icon(at:)) else { return [] }
                return TrackingPlan.inChainOrder(([icon.icon] + icon.trackingOnly).flatMap { shown in
                    shown.value.viewTracking.map { Target(event: "icon.viewTracking", url: $0, source: shown.source) }
                })
            case .iconClick:
                guard let icon = event.icon.flatMap(icon(at:)) else { return [] }
                return TrackingPlan.inChainOrder(([icon.icon] + icon.trackingOnly).flatMap { shown in
                    shown.value.clickTracking.map { Target(event: "icon.clickTracking", url: $0.url, source: shown.source) }
                })
            case .viewable:
                // The InLine's and every wrapper's together (VAST 4.x §3.5), in chain order.
                return ad.viewable.map { Target(event: "viewable", url: $0.url, source: $0.source) }
            case .notViewable:
                return ad.notViewable.map { Target(event: "notViewable", url: $0.url, source: $0.source) }
            case .viewUndetermined:
                return ad.viewUndetermined.map { Target(event: "viewUndetermined", url: $0.url, source: $0.source) }
            case .progress:
                return []  // by offset: `progress`, made in `init`
            case .viewport, .iconHidden, .bufferStart, .bufferFinish, .skippable, .clickThroughClose, .close, .closeShown, .replayShown, .rewarded, .rewardForfeited, .appState,
                 .rejected, .abandoned, .error:
                return []
            }
        }

        private func linearTargets(_ name: TrackingEventName, as label: String? = nil) -> [Target] {
            ad.tracking(for: name).map { Target(event: label ?? name.rawValue, url: $0.url, source: $0.source) }
        }
    }

    /// `targets` in chain order, as every other event fires (`ResolvedAd`'s rule): outermost wrapper first, the InLine
    /// last, document order kept within one source. The shown companion's own tracking and the tracking-only
    /// wrapper companions' are merged this way.
    static func inChainOrder(_ targets: [Target]) -> [Target] {
        targets.enumerated().sorted { ($0.element.source.chainDepth, $0.offset) < ($1.element.source.chainDepth, $1.offset) }.map(\.element)
    }
}
