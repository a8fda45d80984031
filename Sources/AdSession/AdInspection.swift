import Primitives
import Foundation
import PlayerEngine
import VAST

/// What `vplay inspect` reports about a tag without playing it: the resolved chain hop by hop, the media file chosen
/// and why, every tracking URL by event and source, warnings and errors with their VAST codes.
public struct AdInspection: Sendable {
    /// One tracking URL of the resolved ad.
    public struct Tracking: Sendable, Equatable {
        /// `impression`, `error`, `start`, `progress`, `clickTracking`, `companion.creativeView`,
        /// `companion.clickTracking`, `icon.viewTracking`, `icon.clickTracking`, `verificationNotExecuted`, …
        public var event: String
        public var url: String
        /// `inline`, `wrapper 1 (AdSystem)`, …
        public var source: String
        /// For progress: the offset as written (`00:00:05`, `25%`).
        public var offset: String?
        /// Macros in the URL that are not in the VAST 4.x list.
        public var unknownMacros: [String]
    }

    public var tag: String
    public var hops: [ResolutionHop]
    public var ad: ResolvedAd?
    public var selection: MediaSelection?
    /// The chosen file opened with FFmpeg (container only, no decode), when it could be.
    public var media: MediaInfo?
    public var tracking: [Tracking] = []
    public var warnings: [String] = []
    /// VAST errors with codes: the no-ad error, failed chains, media errors.
    public var errors: [SessionError] = []

    /// The worst error's kind decides the exit code: an ad error (no ad) before a media error.
    public var outcome: SessionSummary.Outcome {
        if errors.contains(where: { $0.kind == .ad }) && ad == nil { return .adError }
        if errors.contains(where: { $0.kind == .media }) { return .mediaError }
        return .completed
    }
}

/// Builds an `AdInspection` for a configuration (the same tag loading and media selection as a session).
public struct AdInspector: Sendable {
    public let configuration: SessionConfiguration

    public init(configuration: SessionConfiguration) { self.configuration = configuration }

    /// - Parameter openMedia: open the chosen media file to compare its duration with the tag's (no decode).
    public func inspect(openMedia: Bool = true) async -> AdInspection {
        let http = HTTPTagFetcher(userAgent: configuration.userAgent, maxBytes: configuration.resolver.parserLimits.maxBytes)
        let report = await inspect(openMedia: openMedia, http: http)
        await http.shutdown()
        return report
    }

    private func inspect(openMedia: Bool, http: HTTPTagFetcher) async -> AdInspection {
        let loader = TagLoader(configuration: configuration, http: http)
        let (tagURL, resolution) = await loader.resolve()
        var report = AdInspection(tag: configuration.tag, hops: resolution.hops)
        report.warnings = resolution.warnings.map(\.description)
        for failure in resolution.failures {
            report.errors.append(SessionError(kind: .ad, code: failure.error.code.rawValue, message: failure.error.message))
        }
        guard let ad = resolution.defaultAd, let linear = ad.linear else {
            if let error = resolution.noAdError, !report.errors.contains(where: { $0.code == error.code.rawValue && $0.message == error.message }) {
                report.errors.append(SessionError(kind: .ad, code: error.code.rawValue, message: error.message))
            }
            return report
        }
        report.ad = ad
        report.tracking = Self.tracking(of: ad)
        do {
            var criteria = configuration.mediaCriteria
            if let path = configuration.adcashStatePath, criteria.forcedFile == nil { criteria.adcashQuality = AdcashState.nextQuality(statePath: path) }
            let selection = try MediaFileSelector.select(from: linear.mediaFiles, criteria: criteria)
            report.selection = selection
            guard openMedia else { return report }
            switch MediaLocator(mappings: configuration.mappings).locate(selection.file.url, inLineTagURL: loader.inLineTagURL(of: ad, tagURL: tagURL)) {
            case let .success(location):
                do {
                    let info = try FFmpegMediaSource(location: location, options: MediaOpenOptions(decoderThreads: 1)).info
                    report.media = info
                    if let declared = linear.duration, abs((declared - info.exactDuration).seconds) > 1 {
                        report.warnings.append("duration mismatch: VAST <Duration> \(declared.clockText) vs media \(info.exactDuration.clockText) (quartiles use the media's)")
                    }
                } catch {
                    report.errors.append(SessionError(kind: .media, code: error.vastCode, message: error.description))
                }
            case let .failure(error):
                report.errors.append(SessionError(kind: .media, code: error.vastCode, message: error.description))
            }
        } catch {
            report.errors.append(SessionError(kind: .media, code: error.code.rawValue, message: error.message))
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
