/// The media's download under a simulated network, on the session clock, and the buffering policy a player applies
/// to it (Media3's `DefaultLoadControl`: play once 1 s is buffered, restart after a stall once 2 s is).
///
/// The session clock starts when the first picture shows; the download started `startupDelay` before that (the
/// media request). A frame can be presented once every byte up to its packets' has arrived (`DeliveryMap`).
public struct MediaDelivery: Sendable, Equatable {
    /// The simulated network the media downloads on.
    public var profile: NetworkProfile
    /// Where the media's bytes are: how many must arrive before each frame can be presented.
    public var map: DeliveryMap
    /// Media buffered before playback starts (default 1 s).
    public var startupBuffer: Duration
    /// Media buffered before playback restarts after a stall (default 2 s).
    public var rebuffer: Duration
    /// A stall longer than this fails the ad (402); nil: a stall lasts as long as the download needs.
    public var stallTimeout: Duration?
    /// From the media request to the first picture: when `startupBuffer` of media (or all of it, when shorter) had
    /// arrived. nil when it never does (the rate drops to 0 for good before).
    public let startupDelay: Duration?

    /// Media buffered before the first frame by default: 1 s, Media3's.
    public static let defaultStartupBuffer: Duration = .seconds(1)
    /// Media buffered before playback restarts after a stall by default: 2 s, Media3's.
    public static let defaultRebuffer: Duration = .seconds(2)

    /// The download of the media mapped by `map` on `profile`; negative buffers count as 0, and `startupDelay` is
    /// worked out here.
    public init(profile: NetworkProfile, map: DeliveryMap, startupBuffer: Duration = defaultStartupBuffer,
                rebuffer: Duration = defaultRebuffer, stallTimeout: Duration? = nil) {
        self.profile = profile
        self.map = map
        self.startupBuffer = max(.zero, startupBuffer)
        self.rebuffer = max(.zero, rebuffer)
        self.stallTimeout = stallTimeout
        startupDelay = profile.arrival(ofBytes: map.bytesNeeded(through: self.startupBuffer))
    }

    /// Whether the media is ready to play within `timeout` of its request (else a player fails it with 402).
    public func isReady(within timeout: Duration) -> Bool {
        startupDelay.map { $0 <= timeout } ?? false
    }

    /// The session-clock time at which the media up to `time` (inclusive) can be presented: negative when it had
    /// arrived before the first picture; nil when it never arrives.
    public func available(through time: Duration) -> Duration? {
        guard let startupDelay, let arrival = profile.arrival(ofBytes: map.bytesNeeded(through: time)) else { return nil }
        return arrival - startupDelay
    }
}
