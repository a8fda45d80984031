/// Opens a media location (a local path or an http(s) URL) for playback: FFmpeg in the live environment, a
/// decoded timeline or scripted frames in tests. The one seam through which a session reaches media.
///
/// Opening may block (a network connect, FFmpeg probing the container), so callers run it where blocking is allowed
/// (`SessionEnvironment.mediaExecutor`).
public protocol MediaOpening: Sendable {
    /// Opens `location` and reads its header; the source is positioned before the first frame.
    func open(_ location: String, options: MediaOpenOptions) throws(MediaError) -> any MediaSource
    /// Opens `location` to read its packets only (no decoder), for timing a full download.
    func openForDemux(_ location: String) throws(MediaError) -> any PacketSource
    /// Maps where `location`'s bytes are on its timeline (frames' times: `timelineStart` subtracted), for a
    /// simulated network (`DeliveryMap`); `streaming` as the media was opened (an HLS or DASH MediaFile's variant).
    func deliveryMap(_ location: String, timelineStart: Duration, streaming: StreamingOptions?) throws(MediaError) -> DeliveryMap
}

extension MediaOpening {
    /// Sources that cannot say where their bytes are: a simulated network cannot be applied to them.
    public func deliveryMap(_ location: String, timelineStart: Duration, streaming: StreamingOptions?) throws(MediaError) -> DeliveryMap {
        throw MediaError.readFailed(location: location, message: "this media source cannot map its bytes for a simulated network")
    }
}

