import PlayerEngine
import VAST

/// One ad's turn in a session, in play order: its place in the break, what it fires and plays (`plan`; `plan.failure`
/// when it cannot play), and its media. A single ad is a break of one turn; a pod's ads, substitutes and cut ads are
/// one turn each. `Media` is what the turn plays from at each stage: the file opened (or only chosen) while preparing
/// (`PreparedAd.TurnMedia`), a fleet's verified decode (`FleetMedia`), a session's opened source (`MediaHandle`).
struct AdTurn<Media> {
    /// Its place in the break (a substitute takes the place of the ad it replaces), id and sequence.
    var place: BreakAd
    /// What it fires and plays; `plan.failure` when it cannot play.
    var plan: SessionPlan
    /// Its media; nil when it has none (no ad, or its media did not open: a failed turn may still name the file chosen
    /// while preparing, for the report).
    var media: Media?
    /// It stands in for the failed ad at its place (a stand-alone ad of the response).
    var substitute = false
    /// Left out by the break's limits (206).
    var cut = false

    init(place: BreakAd, plan: SessionPlan, media: Media?) {
        (self.place, self.plan, self.media) = (place, plan, media)
    }

    var failure: SessionError? { plan.failure }
    /// It plays: it has media and no failure.
    var plays: Bool { media != nil && plan.failure == nil }

    /// The same turn playing from other media (none when `transform` gives none).
    func withMedia<Other>(_ transform: (Media) throws -> Other?) rethrows -> AdTurn<Other> {
        var turn = AdTurn<Other>(place: place, plan: plan, media: try media.flatMap(transform))
        (turn.substitute, turn.cut) = (substitute, cut)
        return turn
    }
}

extension AdTurn: Sendable where Media: Sendable {}

extension MediaOpening {
    /// Opens `location` again from the start, for a replay or a session that decodes for itself: its timeline is the
    /// one known from the first open or the verified decode.
    func reopener(_ location: String, timeline: PresentationTimeline?, streaming: StreamingOptions?, threads: Int)
        -> () throws(MediaError) -> any MediaSource {
        var options = MediaOpenOptions(decoderThreads: threads)
        options.knownTimeline = timeline
        options.streaming = streaming
        return { [options] () throws(MediaError) in try open(location, options: options) }
    }
}
