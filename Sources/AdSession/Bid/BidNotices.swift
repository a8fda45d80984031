import Findings
import PlayerEngine
import VAST

/// An OpenRTB bid's notices in a prepared break (`--bid`), as tracking of their own source (`bid`), so every log,
/// the sink's reconciliation, expectations and a fleet's oracle see them as they see the ad's own:
/// - the win notice (`nurl`, event `nurl`) first, before anything of the ad, whatever happens to it (the bid won);
///   not when `nurl` served the markup (that request was the notice);
/// - the billing notice (`burl`, event `burl`) once, for the break's first ad that plays: when it is ready to show
///   (`render`), with its impression (`impression`) or when it becomes viewable (`viewable`);
/// - the loss notice (`lurl`) never.
enum BidNotices {
    /// `prepared` with the notices of `bid`'s winning bid and what the session says about the bid; as it was when
    /// no bid was read or the session was stopped.
    ///
    /// Under `--billing-on viewable`, an ad whose chain asks for no viewability is measured all the same (`auto`): the
    /// SDK's viewability decides the bill.
    static func add(_ bid: BidSource?, to prepared: PreparedAd, viewability: SessionConfiguration.ViewabilityMode) -> PreparedAd {
        guard let bid, let win = bid.won, case var .ready(adBreak) = prepared.outcome else { return prepared }
        var first: [PreparedAd.Step] = win.notes.map { .warning(Finding(rule($0.rule), $0.text)) }
        if win.markup != nil, let nurl = win.winNotice {
            first.append(.fire([TrackingPlan.Target(event: "nurl", url: nurl, source: .bid)], errorCode: nil, reason: nil, facts: nil))
        }
        if win.billingNotice == nil {
            first.append(.warning(Finding(.bidNoBilling, "the bid has no burl: no billing notice fires (the exchange bills on its own events)")))
        }
        if adBreak.kind == .single, !adBreak.turns.isEmpty {
            adBreak.turns[0].plan.steps.insert(contentsOf: first, at: 0)
        } else {
            adBreak.prelude.steps.insert(contentsOf: first, at: 0)
        }
        if let burl = win.billingNotice, let index = adBreak.turns.firstIndex(where: { $0.failure == nil && $0.plan.playback != nil }) {
            let target = TrackingPlan.Target(event: "burl", url: burl, source: .bid)
            var plan = adBreak.turns[index].plan
            guard var playback = plan.playback else { return prepared }
            switch bid.billing {
            case .render: plan.steps.append(.fire([target], errorCode: nil, reason: nil, facts: plan.facts))
            case .impression: playback.plan = playback.plan.adding([target], to: .impression)
            case .viewable:
                playback.plan = playback.plan.adding([target], to: .viewable)
                if viewability == .auto, playback.rules.viewability == .off { playback.rules.viewability = .measured }
                if playback.rules.viewability != .measured {
                    plan.steps.append(.warning(Finding(.bidNoBilling, "--billing-on viewable with --viewability \(viewability.rawValue): viewability is not measured, so burl never fires")))
                }
            }
            plan.playback = playback
            adBreak.turns[index].plan = plan
        }
        var ready = prepared
        ready.outcome = .ready(adBreak)
        return ready
    }

    private static func rule(_ name: String) -> Rule {
        switch name {
        case "choice": .bidChoice
        case "mismatch": .bidMismatch
        default: .bidMacro
        }
    }
}
