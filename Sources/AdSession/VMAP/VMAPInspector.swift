import Foundation
import VAST

/// Inspects a VMAP document (`vplay inspect --vmap DOC`): the same schedule a session plays, each break's ads
/// resolved as a session resolves them (their tags fetched, their media opened when asked), nothing played or fired.
public struct VMAPInspector: Sendable {
    public let configuration: SessionConfiguration
    public let playback: VMAPPlayback
    public let mode: VMAPSessionRunner.Mode
    public let environment: SessionEnvironment

    /// - Parameter environment: `.live(configuration)` when nil.
    public init(configuration: SessionConfiguration, playback: VMAPPlayback = VMAPPlayback(), mode: VMAPSessionRunner.Mode, environment: SessionEnvironment? = nil) {
        self.configuration = configuration
        self.playback = playback
        self.mode = mode
        self.environment = environment ?? .live(configuration)
    }

    /// The document's inspection, or nil when it is not VMAP (`.detect`: the caller inspects it as VAST).
    public func inspect(openMedia: Bool = true) async -> VMAPInspection? {
        let loader = VMAPDocumentLoader(configuration: configuration, environment: environment)
        let loaded = mode == .interstitials ? await loader.loadInterstitials() : await loader.load(requireVMAP: mode == .vmap)
        switch loaded {
        case .vast:
            await environment.shutdown()
            return nil
        case let .failed(error, _):
            var document = VMAPRunReport(version: "", namespace: .none, contentDuration: .zero, contentDurationGiven: false, breakPrefetch: playback.breakPrefetch)
            document.documentError = error
            await environment.shutdown()
            return VMAPInspection(document: document)
        case let .vmap(vmap, url):
            let inspection = await inspect(vmap, url: url, openMedia: openMedia)
            await environment.shutdown()
            return inspection
        case let .interstitials(breaks, url):
            let inspection = await inspect(breaks.document, url: url, openMedia: openMedia, interstitials: breaks)
            await environment.shutdown()
            return inspection
        }
    }

    private func inspect(_ vmap: VMAPDocument, url: URL, openMedia: Bool, interstitials: InterstitialBreaks? = nil) async -> VMAPInspection {
        let duration = playback.contentDuration ?? interstitials?.stream.contentDuration ?? VMAPSchedule.defaultContentDuration(vmap)
        let schedule = VMAPSchedule(vmap, contentDuration: duration)
        var document = VMAPRunReport(version: vmap.version, namespace: vmap.namespace, contentDuration: duration,
                                     contentDurationGiven: playback.contentDuration != nil, breakPrefetch: playback.breakPrefetch)
        document.notes = VMAPNotes.findings(vmap, schedule: schedule, playback: playback, contentDuration: duration, interstitials: interstitials)
            .map(\.description)
        var inspection = VMAPInspection(document: document)
        let player = VMAPBreakPlayer(configuration: configuration, environment: environment, document: vmap, documentURL: url, interstitials: interstitials)
        for (offset, slot) in schedule.slots.enumerated() {
            var report = player.report(slot, number: offset + 1)
            var ads: AdInspection?
            var tracking = vmap.breaks[slot.breakIndex].tracking
            switch await player.prepare(slot, number: offset + 1, purpose: .inspect(openMedia: openMedia)) {
            case let .notRequested(outcome, error):
                report.outcome = outcome
                report.errors = [VMAPBreakReport.Failure(code: error.code.rawValue, message: error.message)]
            case let .requested(prepared, breakConfiguration, tagURL, failure, written):
                report.tagURL = tagURL
                inspection.document.notes += (written?.notes ?? []).map(\.description)
                tracking += written?.tracking ?? []
                let inspected = AdInspector.inspection(of: prepared, tag: tagURL ?? breakConfiguration.tag)
                ads = inspected
                report.adsTried = max(prepared.pod.count, prepared.ad == nil ? 0 : 1)
                if let failure {
                    report.errors = [VMAPBreakReport.Failure(code: failure.code.rawValue, message: failure.message)]
                } else {
                    report.errors = inspected.errors.map { VMAPBreakReport.Failure(code: $0.code.rawValue, message: $0.message) }
                }
                report.outcome = failure == nil && inspected.outcome == .completed ? .played : .failed
            }
            inspection.breaks.append(VMAPInspection.Break(report: report, tracking: tracking, ads: ads))
        }
        return inspection
    }
}
