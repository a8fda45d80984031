import Findings
import Primitives
import Foundation
import PlayerEngine
import VAST

/// Builds an `AdInspection` for a configuration: the same preparation as a session (`AdPreparation`: tag loading,
/// the resolver's choice, media opening with the fallback to the next file), without playing.
public struct AdInspector: Sendable {
    /// The session settings the inspection follows (tag, media criteria, resolver settings).
    public let configuration: SessionConfiguration
    /// What the inspection reaches outside itself: tag fetching and media opening.
    public let environment: SessionEnvironment

    /// - Parameter environment: `.live(configuration)` when nil.
    public init(configuration: SessionConfiguration, environment: SessionEnvironment? = nil) {
        self.configuration = configuration
        self.environment = environment ?? .live(configuration)
    }

    /// - Parameters:
    ///   - openMedia: open the chosen media file to compare its duration with the tag's (no decode).
    ///   - creative: also decode it once through creative QA, measured against these targets (`lint`).
    public func inspect(openMedia: Bool = true, creative: CreativeTargets? = nil) async -> AdInspection {
        let purpose = AdPreparation.Purpose.inspect(openMedia: openMedia, creative: openMedia ? creative : nil)
        let prepared = await AdPreparation(configuration: configuration, environment: environment).prepare(purpose)
        await environment.shutdown()
        return Self.inspection(of: prepared, tag: configuration.tag, bid: configuration.bid?.won)
    }

    static func inspection(of prepared: PreparedAd, tag: String, bid: OpenRTBWin? = nil) -> AdInspection {
        let resolution = prepared.resolution
        var report = AdInspection(tag: tag, hops: resolution.hops)
        report.warnings = prepared.warnings + prepared.pod.flatMap { $0.plan.steps.warnings }
        report.pod = prepared.pod.map { entry in
            AdInspection.PodPlace(ad: entry.place, substitute: entry.substitute, cut: entry.cut, error: entry.failure,
                                  mediaURL: entry.media?.opened?.selection.file.url, duration: entry.media?.opened?.duration)
        }
        for failure in resolution.failures {
            report.errors.append(SessionError(kind: .of(failure.error.code), code: failure.error.code, message: failure.error.message))
        }
        guard let ad = prepared.ad, ad.linear != nil else {
            if let error = resolution.noAdError, !report.errors.contains(where: { $0.code == error.code && $0.message == error.message }) {
                report.errors.append(SessionError(kind: .of(error.code), code: error.code, message: error.message))
            }
            return report
        }
        report.ad = ad
        report.tracking = Self.tracking(of: ad)
        // A bid's notices (`--bid`) a session fires beside the ad's own: the win notice (unless it served the markup)
        // and the billing notice.
        if let bid {
            let notices = [bid.markup == nil ? nil : bid.winNotice.map { ("nurl", $0) }, bid.billingNotice.map { ("burl", $0) }].compactMap { $0 }
            report.tracking = notices.map { .init(event: $0.0, url: $0.1, source: TrackingSource.bid.description, offset: nil, unknownMacros: URLTemplate.unknownMacros(in: $0.1)) }
                + report.tracking
        }
        let plan = prepared.leadTurn?.plan.playback?.plan
        report.endCard = plan?.endCard ?? EndCardChoice(ad)
        report.icons = (plan?.icons ?? ShownIcon.choose(ad.icons)).map {
            ShownIconInfo(icon: $0.icon, trackedWith: $0.trackingOnly.map(\.source))
        }
        report.selection = prepared.leadTurn?.media?.selection
        report.media = prepared.media?.source.info
        report.delivery = prepared.media?.delivery
        if let failure = prepared.failure { report.errors.append(failure) }
        // A pod ad whose media failed to open (or the break cut) decides the outcome as it does a run's: an error of
        // the tag only when no ad of the pod plays (`SessionCore.run`); while another plays, a warning (each place
        // keeps its error in `pod`). Inspect exited 4 for `media/pods/pod-failing.xml`, which a run plays (exit 0).
        let podPlays = prepared.pod.contains { $0.failure == nil && !$0.cut }
        for entry in prepared.pod {
            guard let failure = entry.failure else { continue }
            if podPlays {
                report.warnings.append(Finding(.vastError(failure.code), "pod ad \(entry.place.index) was not played: VAST \(failure.code): \(failure.message); the pod plays on"))
            } else if !report.errors.contains(failure) {
                report.errors.append(failure)
            }
        }
        return report
    }

    /// Every URL a session can fire for the ad, grouped by event in a fixed order, each with its source: impressions,
    /// errors, viewability, Linear tracking by event, clicks, companions (`companion.creativeView`,
    /// `companion.clickTracking`), icons (`icon.viewTracking`, `icon.clickTracking`) and verification tracking
    /// (`verificationNotExecuted`).
    static func tracking(of ad: ResolvedAd) -> [AdInspection.Tracking] {
        var rows: [AdInspection.Tracking] = []
        func add(_ event: String, _ url: String, _ source: TrackingSource, offset: String? = nil) {
            rows.append(.init(event: event, url: url, source: source.description, offset: offset, unknownMacros: URLTemplate.unknownMacros(in: url)))
        }
        for url in ad.impressions { add("impression", url.url, url.source) }
        for url in ad.errorURLs { add("error", url.url, url.source) }
        for url in ad.viewable { add("viewable", url.url, url.source) }
        for url in ad.notViewable { add("notViewable", url.url, url.source) }
        for url in ad.viewUndetermined { add("viewUndetermined", url.url, url.source) }
        var seen: [String] = []
        for tracking in ad.linearTracking where !seen.contains(tracking.event.rawValue) { seen.append(tracking.event.rawValue) }
        for event in seen {
            for tracking in ad.linearTracking where tracking.event.rawValue == event {
                add(event, tracking.url, tracking.source, offset: tracking.offset.map(\.description))
            }
        }
        if let click = ad.clickThrough { add("clickThrough", click.url, click.source) }
        for url in ad.clickTracking { add("clickTracking", url.url, url.source) }
        for url in ad.customClicks { add("customClick", url.url, url.source) }
        // Companions: each displayable companion's own tracking (creativeView is the only companion event VAST
        // defines) and CompanionClickTracking, InLine's and wrappers' alike, then the tracking-only wrapper
        // companions' URLs, which fire with whichever companion is shown.
        for companion in ad.companions {
            for tracking in companion.value.tracking { add("companion.\(tracking.event.rawValue)", tracking.url, companion.source) }
            for url in companion.value.clickTracking { add("companion.clickTracking", url.url, companion.source) }
        }
        for url in ad.companionCreativeView { add("companion.creativeView", url.url, url.source) }
        for url in ad.companionClickTracking { add("companion.clickTracking", url.url, url.source) }
        for icon in ad.icons {
            for url in icon.value.viewTracking { add("icon.viewTracking", url, icon.source) }
            for url in icon.value.clickTracking { add("icon.clickTracking", url.url, icon.source) }
        }
        // Verification tracking (verificationNotExecuted: a session reports every verification as not executed).
        for verification in ad.verifications {
            for tracking in verification.value.tracking { add(tracking.event.rawValue, tracking.url, verification.source) }
        }
        return rows
    }
}
