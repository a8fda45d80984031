import PlayerEngine
import VAST

/// The turns of one session and what fires before them. A single ad is a break of one turn; a pod reports each
/// ad's outcome, shifts each ad's events to session time and carries the player's state and the pod's reward from
/// one turn to the next (`BreakState`).
struct AdBreak<Media> {
    var kind: BreakKind
    /// What fires before the first turn (a pod's failed chains beside it, its warnings); empty for a single ad, whose
    /// turn carries its own.
    var prelude: SessionPlan
    var turns: [AdTurn<Media>]

    /// A single ad: its plan and media as the one turn.
    static func single(_ plan: SessionPlan, media: Media?) -> AdBreak {
        AdBreak(kind: .single, prelude: SessionPlan(steps: []), turns: [AdTurn(place: BreakAd(index: 1, id: plan.ad?.ad.id, sequence: nil), plan: plan, media: media)])
    }

    /// The same break playing from other media.
    func withMedia<Other>(_ transform: (Media) throws -> Other?) rethrows -> AdBreak<Other> {
        AdBreak<Other>(kind: kind, prelude: prelude, turns: try turns.map { try $0.withMedia(transform) })
    }
}

extension AdBreak: Sendable where Media: Sendable {}
