import Primitives
import VAST

/// `--display-deadline D` (off by default): VAST 4.3's **304**, "InLine response returned ad unit that failed to
/// result in ad display within defined time limit": a limit on the whole wait from the ad request to the first frame
/// shown, distinct from 402's limit on the media alone. The first frame shows when preparation has ended (tag chain
/// resolved, media opened: the network clock) plus, on a simulated network, the download's startup delay. Missed, the
/// break shows nothing: each ad of it fails with 304 to its chain's Error URLs. A preparation still running at the
/// limit is cancelled there, as a player gives up waiting; its ad, if one was chosen by then, gets the 304.
struct DisplayDeadline {
    let limit: Duration
    /// Network time the ad request had taken before this session's preparation began (the first document's fetch,
    /// made once to tell VMAP from VAST: `VMAPSessionRunner`).
    var spent: Duration = .zero

    /// `preparation` run against the limit on `clock`: what it prepared, and whether the limit passed first (the
    /// preparation was then cancelled and returned what it had).
    func prepare(_ preparation: AdPreparation, clock: any Clock<Duration>) async -> (prepared: PreparedAd, passed: Bool) {
        let left = max(.zero, limit - spent)
        return await withTaskGroup(of: Ending.self) { group in
            group.addTask { Ending.prepared(Handover(prepared: await preparation.prepare(.play))) }
            group.addTask {
                do { try await clock.sleep(for: left) } catch { return .stopped }
                return .limitPassed
            }
            var passed = false
            while let ending = await group.next() {
                switch ending {
                case let .prepared(handover):
                    group.cancelAll()
                    return (handover.prepared, passed)
                case .limitPassed:
                    passed = true
                    group.cancelAll()
                case .stopped:
                    break
                }
            }
            preconditionFailure("the preparation child always ends with what it prepared")
        }
    }

    /// `prepared` as a session plays it under the limit: unchanged when its first frame shows in time, else with
    /// every turn failed with 304 (an interrupted preparation becomes the one failed turn of the ad it had, if any).
    /// - Parameters:
    ///   - elapsed: network time the preparation took (the time `spent` before it is added here).
    ///   - waited: how long the ready ad then waits for the app to be active (`load+N` script steps).
    func judge(_ prepared: PreparedAd, elapsed: Duration, passed: Bool, waited: Duration = .zero) -> PreparedAd {
        let elapsed = spent + elapsed
        var adBreak: AdBreak<PreparedAd.TurnMedia>
        let startup: Duration
        switch prepared.outcome {
        case let .ready(ready):
            adBreak = ready
            startup = prepared.startupDelay + waited
            guard passed || elapsed + startup > limit, prepared.plays else { return prepared }
        case let .interrupted(steps, ad):
            guard passed else { return prepared }
            adBreak = .single(SessionPlan(steps: steps, ad: ad), media: nil)
            startup = .zero
        }
        let shown = passed ? "nothing was shown: the ad was still loading" : "its first frame would show at \((elapsed + startup).millisecondText) s"
            + (startup > .zero ? " (\(elapsed.millisecondText) s to load, \((startup - waited).millisecondText) s to buffer its start"
                + (waited > .zero ? ", \(waited.millisecondText) s waiting for the app to be active)" : ")") : "")
        for index in adBreak.turns.indices where adBreak.turns[index].failure == nil {
            var plan = adBreak.turns[index].plan
            let known = plan.ad == nil ? "; no ad was chosen yet, so no Error URL is known" : ""
            let error = SessionError(kind: .ad, code: .inlineDisplayTimeout,
                                     message: "no ad displayed within the display deadline of \(limit.millisecondText) s (--display-deadline): \(shown)\(known)")
            plan.steps.append(.failure(error, errorTargets: plan.ad?.errorURLs.map(AdPreparation.errorTarget) ?? [], facts: plan.facts))
            plan.failure = error
            adBreak.turns[index].plan = plan
        }
        return PreparedAd(resolution: prepared.resolution, outcome: .ready(adBreak))
    }

    /// How one of the race's two children ended.
    private enum Ending: Sendable {
        case prepared(Handover)
        case limitPassed
        case stopped
    }

    /// The preparation handed from its child task (its media sources are not `Sendable`) to the session; the child
    /// returns it and never touches it again.
    private struct Handover: @unchecked Sendable {
        let prepared: PreparedAd
    }
}
