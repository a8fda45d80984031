import Findings
import Foundation
import PlayerEngine
import Primitives
import VAST

/// Prepares an ad pod (VAST 4.x "Ad Pods and Stand-Alone Ads"): every pod ad in `sequence` order, each prepared as
/// a single ad is (`AdPreparation.prepareAd`). An ad that cannot play (its chain failed, nothing playable, its media
/// did not open, its length outside the break's limits) is replaced by the next unplayed stand-alone ad of the
/// response, resolved only then, unless its chain said `fallbackOnNoAd="false"`; with none left the pod moves on.
/// The break's limits (`--break-max-ads`, `--break-max-duration`) cut the pod's end with 206.
struct PodPreparation {
    /// The most ads of a pod vplay plays: the rest are cut with 206, as a break's limit would. Real pods hold a few
    /// ads; a 2 MiB tag can hold thousands, and each ad's media is opened before the
    /// pod plays. 16 leaves room for any real pod while bounding the files and connections held open.
    static let maxAds = 16
    /// The most stand-alone ads tried as substitutes over the whole pod (each opens its media): the same bound.
    static let maxSubstitutes = 16

    /// Threads the pod's places open their media on, all at once: an open blocks its thread for up to the media
    /// load deadline (8 s), and the shared media executor has as few as four. Created on the first pod that opens
    /// media on threads (the live environment); idle threads cost nothing but their stacks.
    static let openingExecutor = BlockingExecutor(threads: maxAds, name: "vplay.pod-open")

    let preparation: AdPreparation
    let resolver: VASTResolver
    let tagURL: URL
    let criteria: MediaSelectionCriteria
    let purpose: AdPreparation.Purpose

    func prepare(_ resolution: VASTResolution, prelude: [PreparedAd.Step]) async -> PreparedAd {
        var resolution = resolution
        let slotFailures = Set(resolution.pod.compactMap(\.failure))
        var steps = prelude
        // Failed chains that hold no place of the pod (a broken ad beside it) fire before it plays.
        steps += AdPreparation.failureSteps(resolution.failures.filter { !slotFailures.contains($0) }, purpose: purpose)
        if resolution.pod.count > Self.maxAds {
            steps.append(.warning(Finding(.podAdsCut, "the pod has \(resolution.pod.count) ads; vplay plays at most \(Self.maxAds), the rest are cut (206)")))
        }
        var pod = Assembly(limits: preparation.configuration.breakRequest)
        // The places that can play are opened together before the pod is assembled in order: sixteen unreachable ads
        // take one media deadline, not sixteen. Only as many as the break could play are opened ahead (a later place
        // is opened in turn if an earlier one fails).
        var opened = await openAhead(resolution)
        if Task.isCancelled { return interrupted(prelude) }
        for (offset, slot) in resolution.pod.enumerated() {
            let place = offset + 1
            if pod.cutWhy == nil, place > Self.maxAds { pod.cutWhy = "vplay plays at most \(Self.maxAds) ads of a pod" }
            let ad = slot.adIndex.map { resolution.ads[$0] }
            let label = BreakAd(index: place, id: ad?.ad.id ?? slot.failure?.chain.first?.ad.id, sequence: slot.sequence)
            if pod.cutWhy == nil, let maxAds = pod.limits.maxAds, pod.playing >= maxAds { pod.cutWhy = "the break allows at most \(maxAds) ad(s)" }
            if let cutWhy = pod.cutWhy {
                pod.entries.append(cutEntry(label, ad: ad, failure: slot.failure, why: cutWhy))
                continue
            }
            let entry: AdTurn<PreparedAd.TurnMedia>
            if let failure = slot.failure {
                entry = failedEntry(label, failure: failure)
            } else if let ad {
                let tried: AdTurn<PreparedAd.TurnMedia>
                if let ahead = opened.removeValue(forKey: offset) { tried = ahead } else { tried = await attempt(ad, label: label) }
                entry = pod.fitted(tried, ad: ad, cut: cutEntry)
            } else {
                continue
            }
            if pod.add(entry) { continue }
            guard pod.cutWhy == nil, slot.failure?.fallbackOnNoAd != false else { continue }
            await substitute(at: place, in: &pod, resolution: &resolution, steps: &steps)
        }
        if Task.isCancelled { return interrupted(prelude) }
        // Nothing of the pod can play: the session ends with the first place's error.
        let failure = pod.entries.contains { $0.failure == nil } ? nil
            : pod.entries.first?.failure ?? SessionError(kind: .ad, code: .noAdAfterWrapper, message: "no ad of the pod can play")
        return PreparedAd(resolution: resolution, outcome: .ready(AdBreak(kind: .pod, prelude: SessionPlan(steps: steps, failure: failure), turns: pod.entries)))
    }

    /// The pod as it is assembled, place by place: its entries, the ads that play and their length, and why the rest
    /// is cut once it is.
    private struct Assembly {
        let limits: SessionConfiguration.BreakRequest
        var entries: [AdTurn<PreparedAd.TurnMedia>] = []
        var playing = 0
        var total: Duration = .zero
        /// Why the rest of the pod is cut, once it is.
        var cutWhy: String?
        var substitutesTried = 0

        /// Adds `entry`; whether it plays.
        mutating func add(_ entry: AdTurn<PreparedAd.TurnMedia>) -> Bool {
            entries.append(entry)
            guard entry.failure == nil else { return false }
            playing += 1
            total += entry.media?.opened?.duration ?? .zero
            return true
        }

        /// `entry` as the break takes it: an ad whose media would end the pod past the break's duration is cut (206),
        /// and so is every ad after it (VAST 4.x truncates a pod only at its end).
        mutating func fitted(_ entry: AdTurn<PreparedAd.TurnMedia>, ad: ResolvedAd?,
                             cut: (BreakAd, ResolvedAd?, ResolutionFailure?, String) -> AdTurn<PreparedAd.TurnMedia>) -> AdTurn<PreparedAd.TurnMedia> {
            guard entry.failure == nil, let duration = entry.media?.opened?.duration, let max = limits.maxDuration, total + duration > max else { return entry }
            cutWhy = "the break's \(max.millisecondText) s are used"
            var cutEntry = cut(entry.place, ad, nil, "it would end the pod at \((total + duration).millisecondText) s, past the break's \(max.millisecondText) s")
            cutEntry.substitute = entry.substitute
            return cutEntry
        }
    }

    /// The substitute for the failed ad at `place`: the next stand-alone ad that resolves, is playable and opens (the
    /// chains that fail on the way are listed at the same place).
    private func substitute(at place: Int, in pod: inout Assembly, resolution: inout VASTResolution, steps: inout [PreparedAd.Step]) async {
        while !Task.isCancelled, pod.substitutesTried < Self.maxSubstitutes {
            pod.substitutesTried += 1
            let failuresBefore = resolution.failures.count, warningsBefore = resolution.warnings.count
            let index = await resolver.nextStandAloneAd(&resolution)
            steps += resolution.warnings[warningsBefore...].map { .warning($0.finding) }
            for failure in resolution.failures[failuresBefore...] {
                var failed = failedEntry(BreakAd(index: place, id: failure.chain.first?.ad.id, sequence: nil), failure: failure)
                failed.substitute = true
                pod.entries.append(failed)
            }
            guard let index else { break }
            let standIn = resolution.ads[index]
            var next = await attempt(standIn, label: BreakAd(index: place, id: standIn.ad.id, sequence: nil))
            next.substitute = true
            if pod.add(pod.fitted(next, ad: standIn, cut: cutEntry)) { break }
            // The break is full: no other substitute is tried.
            if pod.cutWhy != nil { break }
        }
    }

    /// The first places of the pod that hold an ad, as many as the break can play (at most `maxAds`), each prepared
    /// (its media opened) concurrently, by their index in the pod.
    private func openAhead(_ resolution: VASTResolution) async -> [Int: AdTurn<PreparedAd.TurnMedia>] {
        let limit = min(Self.maxAds, preparation.configuration.breakRequest.maxAds ?? Self.maxAds)
        let places = resolution.pod.enumerated().filter { $0.offset < Self.maxAds && $0.element.failure == nil && $0.element.adIndex != nil }
            .prefix(limit)
            .map { (offset: $0.offset, ad: resolution.ads[$0.element.adIndex!], sequence: $0.element.sequence) }
        guard places.count > 1 else { return [:] }
        return await withTaskGroup(of: Handover.self) { group in
            for place in places {
                group.addTask {
                    Handover(offset: place.offset, entry: await attempt(
                        place.ad, label: BreakAd(index: place.offset + 1, id: place.ad.ad.id, sequence: place.sequence), concurrently: true))
                }
            }
            var entries: [Int: AdTurn<PreparedAd.TurnMedia>] = [:]
            for await handover in group { entries[handover.offset] = handover.entry }
            return entries
        }
    }

    /// A place's entry handed from the child task that prepared it (and opened its media source, which is not
    /// `Sendable`) to the pod. The child returns it and never touches it again; only the pod uses it after.
    private struct Handover: @unchecked Sendable {
        let offset: Int
        let entry: AdTurn<PreparedAd.TurnMedia>
    }

    /// What a pod stopped (a signal) while it was being prepared is: nothing plays and no ad's error is fired (an
    /// open that FFmpeg gave up on is no error of the ad); the warnings before it stand.
    private func interrupted(_ prelude: [PreparedAd.Step]) -> PreparedAd {
        PreparedAd(resolution: VASTResolution(), outcome: .interrupted(steps: prelude.filter { if case .warning = $0 { true } else { false } }, ad: nil))
    }

    /// Prepares one ad of the pod, with the break's length limits; `concurrently`, its media opens on a thread of
    /// `openingExecutor` (when the environment opens media on threads of its own at all).
    private func attempt(_ ad: ResolvedAd, label: BreakAd, concurrently: Bool = false) async -> AdTurn<PreparedAd.TurnMedia> {
        var preparation = preparation
        if concurrently, preparation.environment.mediaExecutor != nil { preparation.environment.mediaExecutor = Self.openingExecutor }
        guard var turn = await preparation.prepareAd(ad, tagURL: tagURL, criteria: criteria, purpose: purpose) else {
            // Stopped by a signal: the pod is given up once the loop sees it (`interrupted`).
            return AdTurn(place: label, plan: SessionPlan(steps: []), media: nil)
        }
        turn.place = label
        let limits = preparation.configuration.breakRequest
        if turn.failure == nil, let duration = turn.media?.opened?.duration {
            var why: String?
            if let min = limits.minAdLength, duration < min { why = "shorter than the break's minimum ad length of \(min.millisecondText) s" }
            if let max = limits.maxAdLength, duration > max { why = "longer than the break's maximum ad length of \(max.millisecondText) s" }
            if let why {
                let failure = SessionError(kind: .ad, code: .adBreakShortened, message: "the ad's media (\(duration.millisecondText) s) is \(why): not played")
                turn.plan.failure = failure
                turn.plan.steps.append(.failure(failure, errorTargets: ad.errorURLs.map(AdPreparation.errorTarget), facts: turn.plan.facts))
            }
        }
        // A pod's place keeps only media it plays (a file only chosen, or one whose ad failed, is not listed).
        if turn.failure != nil || turn.media?.opened == nil { turn.media = nil }
        return turn
    }

    /// A place whose chain failed or whose ad cannot play: its error goes to its own chain's Error URLs.
    private func failedEntry(_ label: BreakAd, failure: ResolutionFailure) -> AdTurn<PreparedAd.TurnMedia> {
        let error = SessionError(kind: .of(failure.error.code), code: failure.error.code, message: failure.error.message)
        let plan = SessionPlan(steps: [.failure(error, errorTargets: failure.error.errorURLs.map(AdPreparation.errorTarget), facts: nil)],
                               failure: error, ad: nil)
        return AdTurn(place: label, plan: plan, media: nil)
    }

    /// An ad the break's limits leave out: 206 to its Error URLs (a place whose chain failed gets its own error).
    private func cutEntry(_ label: BreakAd, ad: ResolvedAd?, failure: ResolutionFailure?, why: String) -> AdTurn<PreparedAd.TurnMedia> {
        if let failure { return failedEntry(label, failure: failure) }
        let error = SessionError(kind: .ad, code: .adBreakShortened, message: "ad break shortened: \(why); ad not played")
        // The ad's own macros ([ADSERVINGID], [PODSEQUENCE]…) fill its 206.
        let plan = SessionPlan(steps: [.failure(error, errorTargets: ad?.errorURLs.map(AdPreparation.errorTarget) ?? [], facts: ad.map { AdMacroFacts(ad: $0) })],
                               failure: error, ad: ad)
        var entry = AdTurn<PreparedAd.TurnMedia>(place: label, plan: plan, media: nil)
        entry.cut = true
        return entry
    }
}
