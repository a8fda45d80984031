import Primitives
import PlayerEngine
import TrackingBeacons
import VAST

/// A VAST or media error, with the VAST code sent as `[ERRORCODE]`.
public struct SessionError: Error, Sendable, Equatable {
    /// `usage`: the command line asked for what the ad does not have (`--media-file 9` of three files): reported,
    /// never fired to the ad server, exit 2.
    public enum Kind: String, Sendable {
        /// `ad`: 1xx–3xx and 9xx codes; `media`: 4xx codes; `usage`: a request on the command line the ad cannot meet.
        case ad, media, usage

        /// An ad error (1xx–3xx) or a media error (4xx) by its VAST code: run and inspect decide it the same way.
        public static func of(_ code: VASTErrorCode) -> Kind { (400..<500).contains(code.rawValue) ? .media : .ad }
    }
    /// Whether it is an ad, media or usage error; decides the summary's outcome and the exit code.
    public var kind: Kind
    /// VAST error code (100–903), as sent in `[ERRORCODE]`.
    public var code: VASTErrorCode
    /// What went wrong, in words.
    public var message: String
    /// Playhead and session clock when it happened (nil before playback).
    public var playhead: Duration?
    /// Session clock when it happened (nil before playback).
    public var clock: Duration?
}
