import Primitives
import Foundation
import PlayerEngine
import VAST

/// An icon a run shows (`inspect`): the icon, and where the tracking-only icons of its program that fire with it
/// came from.
public struct ShownIconInfo: Sendable {
    /// The icon shown, with the place in the wrapper chain it came from.
    public var icon: Sourced<Icon>
    /// Where the tracking-only icons of the same program, whose tracking fires with this icon, came from.
    public var trackedWith: [TrackingSource]
}
