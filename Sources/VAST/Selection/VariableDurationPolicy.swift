/// What a player that does not run SIMID does with a Linear whose `InteractiveCreativeFile` has
/// `variableDuration="true"` (the interactive unit may lengthen or shorten the ad). SIMID 1.2 §5: such a player
/// "must not" render the ad and should error it out (the next ad of a pod plays); the SIMID group contests the rule
/// (SIMID#322), so it is a policy, `--variable-duration`.
public enum VariableDurationPolicy: String, Sendable, Hashable, CaseIterable {
    /// SIMID 1.2 §5, the default: the ad cannot play; 409 to its chain's Error URLs, as any unplayable ad's error
    /// (a pod moves on to its next ad or a substitute, a response to its next ad).
    case refuse
    /// The interactive unit is not executed (409 to the chain's Error URLs, VAST 4.3 §3.9.3) and the MediaFile plays.
    case playMedia = "play-media"
}
