import Foundation

/// What the page asks the studio to do, as it sends it (`POST /api/runs`): a run of a tag, a fleet of it, or an
/// audit of a device capture against it. Every value is checked here against what the CLI option takes, and becomes
/// one `--option=value` argument of a `vplay` child process: the page never names a path on disk, never adds an
/// option of its own, and the CLI checks each value once more.
public struct StudioRequest: Decodable, Sendable {
    public enum Kind: String, Decodable, Sendable { case run, fleet, audit }

    public struct Tag: Decodable, Sendable {
        /// The tag's text, pasted or dropped.
        public var xml: String?
        /// Or its http(s) URL.
        public var url: String?
        /// A name to show (a dropped file's).
        public var name: String?
    }

    public struct Options: Decodable, Sendable {
        public var clock: String?
        public var speed: String?
        public var network: String?
        /// A rate trace's JSON text (`--network-trace`).
        public var networkTrace: String?
        public var script: String?
        public var screen: String?
        public var pod: String?
        public var breakMaxAds: String?
        public var viewability: String?
        /// dry-run | sink | sink-all | real.
        public var delivery: String?
        public var seed: String?
        public var now: String?
        public var reward: String?
        /// Where the signed reward callback goes (`--reward-callback`): an http(s) URL.
        public var rewardCallback: String?
    }

    public struct Capture: Decodable, Sendable {
        public var name: String
        public var text: String
    }

    public struct Fleet: Decodable, Sendable {
        public var sessions: String?
        public var concurrency: String?
        public var mix: String?
        public var networkMix: String?
    }

    public var kind: Kind
    public var tag: Tag
    public var options: Options?
    public var capture: Capture?
    public var fleet: Fleet?

    /// Why a request cannot run, in one line for the page.
    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The largest tag and capture the page may send.
    public static let maxTagBytes = 4 << 20
    public static let maxCaptureBytes = 16 << 20

    /// A title for the history list.
    public var title: String {
        if let url = tag.url, !url.isEmpty { return url }
        if let name = tag.name, !name.isEmpty { return name }
        return "pasted tag"
    }
}
