import Primitives
import VAST

/// What happened to one occurrence of a VMAP break: where the schedule put it, when it played on the session clock,
/// what it played and what failed. Reported (`SessionRecord.adBreak`) when the break is over, and listed in order in
/// the run's `VMAPRunReport`.
public struct VMAPBreakReport: Sendable, Equatable {
    /// How the break went.
    public enum Outcome: String, Sendable {
        /// At least one ad of it played.
        case played
        /// Its ads were asked for and none played (`error` says why).
        case failed
        /// Not played by this player: a `nonlinear` or `display` break (1003), `CustomAdData` (1005), an
        /// `AdTagURI` of a template type vplay does not play (1005).
        case skipped
        /// A post-roll whose `contentComplete` never came (the script withheld it): requested, never played.
        case withheld
        /// A seek passed over it and a later break played in its place.
        case passed
        /// The session stopped (a signal) before it.
        case notReached
    }

    /// 1-based place in play order (the `break` of its beacons and events).
    public var number: Int
    /// 1-based place of the `AdBreak` in the document.
    public var documentIndex: Int
    /// 0 for the break as written; 1, 2, … for its `repeatAfter` occurrences.
    public var occurrence: Int
    public var breakID: String?
    /// `timeOffset` as written, and where it fell on the content clock.
    public var offsetText: String
    public var contentTime: Duration
    /// `[BREAKPOSITION]`: pre 1, mid 2, post 3.
    public var position: Int
    /// `breakType` as written, lowercased.
    public var types: [String]
    /// `inline` (VASTAdData / VASTData), `adTagURI`, `custom` or `none`.
    public var source: String
    /// The AdTagURI asked for (macros expanded), when there was one.
    public var tagURL: String?
    public var outcome: Outcome
    /// Content time at which its ads were asked for (`--break-prefetch` before it falls), when they were.
    public var requestedAt: Duration?
    /// Session clock at the break's start and end (equal for a break that played nothing).
    public var start: Duration?
    public var end: Duration?
    /// Ads that played, of those tried.
    public var adsPlayed = 0
    public var adsTried = 0
    /// The break's failures, each as fired to its `error` tracking: VMAP codes (1000–1008) for the break, VAST codes
    /// for its ads.
    public var errors: [Failure] = []
    /// Beacons the break planned: its ads' and its own (breakStart, breakEnd, error).
    public var beacons = 0

    public struct Failure: Sendable, Equatable {
        /// A VMAP code (1000–1008) or a VAST code.
        public var code: Int
        public var message: String
    }

    public init(number: Int, documentIndex: Int, occurrence: Int, breakID: String?, offsetText: String, contentTime: Duration,
                position: Int, types: [String], source: String, outcome: Outcome) {
        self.number = number
        self.documentIndex = documentIndex
        self.occurrence = occurrence
        self.breakID = breakID
        self.offsetText = offsetText
        self.contentTime = contentTime
        self.position = position
        self.types = types
        self.source = source
        self.outcome = outcome
    }
}
