import BeaconSink
import PlayerEngine
import Primitives

/// Server-side mode (`--ssai server`): vplay is the stitcher. The ad is stitched into the stream in segments, and the
/// stitcher fires its timed tracking — impression, start, creativeView, the quartiles, complete, progress — when the
/// viewer's player requests the segment that holds each point (AWS Elemental MediaTailor's server-side reporting:
/// "based on actual segment requests from the player", a prefetched segment counting), from one source, for the
/// device: its `User-Agent` is the stitcher's, and `X-Device-IP` and `X-Device-User-Agent` carry the device's
/// (VAST 4.3 §1.1.3), with `X-Forwarded-For` when asked (deprecated, still required by some vendors).
public struct ServerSideInsertion: Sendable, Equatable, Hashable {
    /// The stream's segment duration (MediaTailor's example: 2 s).
    public var segment: Duration
    /// Segments the player requests ahead of its playhead: segment k is requested when the playhead reaches
    /// (k − prefetch) × segment, the first prefetch + 1 at the ad's first frame. 0: each just in time.
    public var prefetch: Int
    /// The device's address, sent as `X-Device-IP` and `[DEVICEIP]` (default: 203.0.113.7, an RFC 5737
    /// documentation address: no real device's).
    public var deviceIP: String
    /// Whether `X-Forwarded-For` carries the device's address too.
    public var forwardedFor: Bool
    /// The stitcher's User-Agent and `[SERVERUA]` (`{service}/{version} ({URL})`, the IAB macro's form).
    public var serverUserAgent: String
    /// The optional `X-Device-*` fields VAST 4.3 §1.1.3 says a server "should" send (`Referer`, `Accept-Language`,
    /// `Requested-With`) or may forward (any other), by the name after `X-Device-`, in order.
    public var deviceFields: [DeviceField]

    /// One optional `X-Device-NAME: value` field.
    public struct DeviceField: Sendable, Equatable, Hashable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { (self.name, self.value) = (name, value) }
    }

    public static let defaultDeviceIP = "203.0.113.7"
    public static let defaultServerUserAgent = "vplay-stitcher/\(VPlayVersion.current) (vplay --ssai server)"

    public init(segment: Duration = .seconds(2), prefetch: Int = 0, deviceIP: String = Self.defaultDeviceIP, forwardedFor: Bool = false,
                serverUserAgent: String = Self.defaultServerUserAgent, deviceFields: [DeviceField] = []) {
        self.segment = segment
        self.prefetch = max(0, prefetch)
        self.deviceIP = deviceIP
        self.forwardedFor = forwardedFor
        self.serverUserAgent = serverUserAgent
        self.deviceFields = deviceFields
    }

    /// The header fields every beacon carries besides the stitcher's User-Agent.
    public func headers(deviceUserAgent: String) -> [(String, String)] {
        var fields = [("X-Device-IP", deviceIP), ("X-Device-User-Agent", deviceUserAgent)]
        fields += deviceFields.map { ("X-Device-\($0.name)", $0.value) }
        if forwardedFor { fields.append(("X-Forwarded-For", deviceIP)) }
        return fields
    }

    /// The events a stitcher times for an ad of `duration` with `progressOffsets`, each with the media time it stands
    /// for: impression, creativeView and start at 0, the quartiles at 25/50/75 %, complete at the end, each progress
    /// offset at its time.
    static func points(duration: Duration, progressOffsets: [Duration]) -> [(name: PlaybackEvent.Name, offset: Duration?, point: Duration)] {
        [(.impression, nil, .zero), (.creativeView, nil, .zero), (.start, nil, .zero), (.firstQuartile, nil, duration / 4),
         (.midpoint, nil, duration / 2), (.thirdQuartile, nil, duration * 3 / 4), (.complete, nil, duration)]
            + Set(progressOffsets).filter { $0 >= .zero && $0 <= duration }.sorted().map { (.progress, $0, $0) }
    }

    /// What every hit at the sink must say of the device (`SinkHit.device`): its address, its User-Agent, and the
    /// address again as `X-Forwarded-For` when asked.
    public func expectedAtSink(deviceUserAgent: String) -> SinkHit.DeviceHeaders {
        SinkHit.DeviceHeaders(ip: deviceIP, userAgent: deviceUserAgent, forwardedFor: forwardedFor ? deviceIP : nil)
    }

    /// The segment holding media time `point` of an ad `duration` long (its end is in the last segment).
    func segment(holding point: Duration, duration: Duration) -> Int {
        let last = max(0, Int((duration.wholeMilliseconds + segment.wholeMilliseconds - 1) / max(1, segment.wholeMilliseconds)) - 1)
        return min(last, Int(point.wholeMilliseconds / max(1, segment.wholeMilliseconds)))
    }

    /// The ad playhead at which the player requests segment `index`.
    func requestPlayhead(of index: Int) -> Duration {
        segment * max(0, index - prefetch)
    }
}
