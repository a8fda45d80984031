/// One step of the selection rules as it narrowed the candidates (`MediaFileSelector`'s rules 3–6), in the order
/// applied.
public enum MediaRuleStep: Sendable, Hashable, CustomStringConvertible {
    /// No candidate declares a bitrate: the bitrate rule kept them all.
    case noBitrates
    /// The highest bitrate, with no target.
    case highestBitrate(kbps: Int)
    /// The highest bitrate at or under the target.
    case highestBitrateWithin(target: Int, kbps: Int)
    /// None at or under the target: the lowest.
    case lowestBitrateOver(target: Int, kbps: Int)
    /// No candidate declares a size: the size rule kept them all.
    case noSizes
    /// The largest size that fits the screen.
    case largestSizeWithin(width: Int, height: Int)
    /// None fits the screen: the smallest.
    case smallestSizeOver(width: Int, height: Int)
    /// `count` of the `of` candidates fit the screen, and are kept.
    case fitting(count: Int, of: Int, width: Int, height: Int)

    public var description: String {
        switch self {
        case .noBitrates: "no bitrates given"
        case let .highestBitrate(kbps): "highest bitrate \(kbps) kbps"
        case let .highestBitrateWithin(target, kbps): "highest bitrate ≤ \(target) kbps is \(kbps) kbps"
        case let .lowestBitrateOver(target, kbps): "no bitrate ≤ \(target) kbps; lowest is \(kbps) kbps"
        case .noSizes: "no sizes given"
        case let .largestSizeWithin(w, h): "largest size within \(w)x\(h)"
        case let .smallestSizeOver(w, h): "none fits \(w)x\(h); smallest"
        case let .fitting(count, of, w, h): "\(count) of \(of) fit \(w)x\(h)"
        }
    }
}
