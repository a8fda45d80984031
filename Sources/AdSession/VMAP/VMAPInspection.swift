import Primitives
import VAST

/// What `vplay inspect` says of a VMAP document without playing it: the schedule on the content, each break's own
/// tracking, and each break's ads inspected as a tag is (chain, media, every URL they can fire).
public struct VMAPInspection: Sendable {
    /// The run's facts (version, namespace, content duration, prefetch, notes; `documentError` when it cannot play),
    /// breaks left empty.
    public var document: VMAPRunReport
    public var breaks: [Break] = []

    public struct Break: Sendable {
        /// Where the break falls and what it is (outcome `played` when its ads would play, `failed`, `skipped`).
        public var report: VMAPBreakReport
        /// The break's own tracking URLs as written: breakStart, breakEnd, error.
        public var tracking: [VMAPDocument.Tracking]
        /// Its ads, inspected; nil when they are not asked for (1003, 1005, 1008 before any request).
        public var ads: AdInspection?
    }

    /// Whether every break would play an ad and the document reads.
    public var plays: Bool { document.documentError == nil && !breaks.contains { $0.report.outcome == .failed } }
}
