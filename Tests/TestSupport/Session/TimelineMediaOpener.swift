import Foundation
@_spi(LiveParts) import PlayerEngine
import Primitives

/// Media for sessions in tests: each location replays a `MediaTimeline`, the frames one real FFmpeg decode of the
/// clip produced. A clip of `media/` is decoded once per test process and replayed by every session after; a test can
/// also name a location's timeline itself (one the decode of another clip made, or frames it wrote). Replays are
/// exact and take no decode, so a session's times depend on nothing but its inputs.
public struct TimelineMediaOpener: MediaOpening {
    /// Location (as the session asks for it: a URL, or a path) → what it replays.
    public var timelines: [String: MediaTimeline]
    /// Locations that fail to open with this error (a 404, a timeout, an unsupported codec…).
    public var failures: [String: MediaError]
    /// Locations opened, in order (a session's fallbacks and replays each open again).
    public let opened = Locked<[String]>([])

    public init(timelines: [String: MediaTimeline] = [:], failures: [String: MediaError] = [:]) {
        self.timelines = timelines
        self.failures = failures
    }

    public func open(_ location: String, options: MediaOpenOptions) throws(MediaError) -> any MediaSource {
        opened.withLock { $0.append(location) }
        if let failure = failures[location] { throw failure }
        if let timeline = timelines[location] { return TimelineMediaSource(timeline) }
        // A local clip (a path, or a file: URL) the test did not name: its real decode, replayed.
        let path = location.hasPrefix("file:") ? (URL(string: location)?.path ?? location) : location
        guard !path.contains("://"), FileManager.default.fileExists(atPath: path) else {
            throw MediaError.notFound(location: location, message: "no timeline for this location in the test's media")
        }
        return TimelineMediaSource(try Self.decoded(path))
    }

    public func openForDemux(_ location: String) throws(MediaError) -> any PacketSource {
        Demux(frames: try open(location, options: MediaOpenOptions()))
    }

    /// Reads a replay's frames as a download reads packets.
    private final class Demux: PacketSource {
        let frames: any MediaSource
        init(frames: any MediaSource) { self.frames = frames }
        func readPacket() throws(MediaError) -> Bool { try frames.nextFrame() != nil }
    }

    private static let cache = Locked<[String: MediaTimeline]>([:])

    /// The timeline of one full FFmpeg decode of the clip at `path` (one decoder thread), decoded once per process.
    public static func decoded(_ path: String) throws(MediaError) -> MediaTimeline {
        if let known = cache.withLock({ $0[path] }) { return known }
        let timeline = try MediaTimeline(decoding: FFmpegMediaSource(location: path, options: MediaOpenOptions(decoderThreads: 1)))
        cache.withLock { $0[path] = timeline }
        return timeline
    }

    /// The timeline of a clip in the repository's `media/` folder.
    public static func clip(_ name: String) throws(MediaError) -> MediaTimeline { try decoded(Repo.media(name)) }
}
