/// Where a merged URL, creative or verification came from in a wrapper chain.
///
/// Wrapper depth counts from the outside: `depth: 1` is the outermost wrapper (the one in the response the player
/// requested first), `depth: 2` the wrapper it pointed to, and so on; the InLine ends the chain.
public enum TrackingSource: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The InLine ad.
    case inline
    /// A wrapper of the chain. `tagURL` is the URL of the VAST response that contained this wrapper (`nil` for a
    /// response given as data), `adSystem` its `<AdSystem>` name.
    case wrapper(depth: Int, adSystem: String?, tagURL: String?)
    /// The root `<VAST><Error>` of a response (only used for no-ad responses). `depth` is 0 for the response the
    /// player requested, n for the response a depth-n wrapper pointed to.
    case response(depth: Int, tagURL: String?)
    /// A VMAP `AdBreak`'s own `TrackingEvents` (breakStart, breakEnd, error); `index` is its 1-based place in the
    /// VMAP document.
    case vmapBreak(index: Int)
    /// An OpenRTB bid's own notices (`--bid`): its win notice (`nurl`) and billing notice (`burl`), fired on the
    /// exchange's behalf; they stand before the whole chain.
    case bid

    /// Where the source stands in the chain, outermost first: a bid's notices 0 (before the chain), a wrapper or
    /// response its depth, the InLine (and a VMAP break's own tracking) last. Merged URLs fire, and a companion or icon
    /// is chosen, in this order.
    public var chainDepth: Int {
        switch self {
        case .bid: 0
        case let .wrapper(depth, _, _), let .response(depth, _): depth
        case .inline, .vmapBreak: Int.max
        }
    }

    public var description: String {
        switch self {
        case .inline: return "inline"
        case .wrapper(let depth, let adSystem, _):
            return adSystem.map { "wrapper \(depth) (\($0))" } ?? "wrapper \(depth)"
        case .response(let depth, _):
            return depth == 0 ? "root response" : "response of wrapper \(depth)"
        case .vmapBreak(let index):
            return "vmap break \(index)"
        case .bid:
            return "bid"
        }
    }
}
