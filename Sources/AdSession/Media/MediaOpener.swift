import PlayerEngine
import Primitives
import VAST

/// Opens the media file of a Linear the way a player does: the best file by the selection rules that opens. When it
/// cannot be opened (not found, not media, truncated before its first frame), the next best is tried, as players
/// fall back within an ad's MediaFiles; only when none opens does the ad fail, with the first (the preferred file's)
/// error. A file the user forced (`--media-file`) is the only one tried.
struct MediaOpener {
    let mappings: [URLMapping]
    let decoderThreads: Int
    let media: any MediaOpening
    /// The session's network clock: a real-time startup delay runs from the media request on it.
    let clock: any Clock<Duration>
    /// A simulated network: a file that would not be ready within its media timeout fails with 402 and the next is
    /// tried, as IMA moves on after `loadVideoTimeout`.
    var network: SessionConfiguration.NetworkConditions? = nil
    /// In real time under `--network`: the opened file reads through the profile's throttle, at this speed.
    var throttleSpeed: Double? = nil

    struct Opened {
        var selection: MediaSelection
        /// Where FFmpeg opened it (a local path under `--map`, else the URL).
        var location: String
        var source: any MediaSource
        /// Its download under the simulated network, if there is one.
        var delivery: MediaDelivery?
        /// Time since it was requested, on the network clock, for a real-time startup delay.
        var sinceRequested: @Sendable () -> Duration
        /// How an HLS playlist was opened (its variant chooser), for a later open of the same media; nil otherwise.
        var streaming: StreamingOptions? = nil
    }

    /// The file opened, or the error to report; `skipped` says why each better file was passed over, in order.
    func open(_ files: [MediaFile], criteria: MediaSelectionCriteria, inLineTagURL: String) -> (Result<Opened, SessionError>, skipped: [String]) {
        // Files tried and not played, by position in the tag: the selector passes over them, and lists why.
        var tried: [Int: String] = [:]
        var firstFailure: SessionError?
        var skipped: [String] = []
        while true {
            var selection: MediaSelection
            do {
                selection = try MediaFileSelector.select(from: files, criteria: criteria, excluding: tried)
            } catch {
                return (.failure(firstFailure ?? SessionError(kind: .media, code: error.code, message: error.message)), skipped)
            }
            let attempt: Result<(String, any MediaSource), MediaError>
            var delivery: MediaDelivery?
            var sinceRequested = clock.stopwatch()
            let streaming = MediaFileSelector.isStreaming(selection.file) ? StreamingOptions(chooseVariant: Self.variantChooser(
                criteria, network: network, type: MediaFileSelector.isDASH(selection.file) ? MediaFileSelector.dashType : Self.hlsType)) : nil
            switch MediaLocator(mappings: mappings).locate(selection.file.url, inLineTagURL: inLineTagURL) {
            case let .success(location):
                do {
                    var options = MediaOpenOptions(decoderThreads: decoderThreads)
                    options.mapDelivery = network != nil
                    options.streaming = streaming
                    if let speed = throttleSpeed, let network {
                        options.throttle = MediaThrottle(profile: network.profile, speed: speed, stopwatch: { [clock] in clock.stopwatch() })
                    }
                    sinceRequested = clock.stopwatch()
                    let source = try media.open(location, options: options)
                    delivery = try network.map { network throws(MediaError) in try Self.delivery(of: source, at: location, network: network, media: media, streaming: streaming) }
                    attempt = .success((location, source))
                } catch {
                    attempt = .failure(error)
                }
            case let .failure(error):
                attempt = .failure(error)
            }
            switch attempt {
            case let .success((location, source)):
                selection.reason += Self.streamingNote(selection.file, info: source.info)
                return (.success(Opened(selection: selection, location: location, source: source, delivery: delivery, sinceRequested: sinceRequested,
                                        streaming: streaming)), skipped)
            case let .failure(error):
                let failure = SessionError(kind: .media, code: error.vastCode, message: error.description)
                firstFailure = firstFailure ?? failure
                // The same file listed twice is not tried twice.
                for (offset, file) in files.enumerated() where file == selection.file {
                    tried[offset + 1] = "could not be played (VAST \(error.vastCode): \(error.description))"
                }
                // Stopped (a signal): FFmpeg was told to give up, and no other file is tried.
                if criteria.forcedFile != nil || tried.count == files.count || Task.isCancelled { return (.failure(firstFailure!), skipped) }
                skipped.append("media file \(selection.file.url) cannot be played (VAST \(error.vastCode): \(error.description)); trying the next one")
            }
        }
    }

    /// The MIME type an HLS variant stands in as.
    static let hlsType = "application/vnd.apple.mpegurl"

    /// What `inspect`'s "why" adds for streaming media: the HLS variant or DASH representation played, or that a
    /// file labelled `delivery="streaming"` played as the progressive file it is.
    static func streamingNote(_ file: MediaFile, info: MediaInfo) -> String {
        let kind = info.format == "dash" ? "DASH" : "HLS"
        if let variant = info.variant { return "; \(kind) \(variant)" }
        if MediaFileSelector.isStreaming(file) { return "; \(kind) media playlist" }
        if file.delivery?.lowercased() == "streaming" {
            return "; labelled delivery=\"streaming\", played as the progressive file it is (\(info.format))"
        }
        return ""
    }

    /// Chooses an HLS master playlist's variant (a DASH manifest's video representation) by the MediaFile rule
    /// (`--bandwidth`, `--screen`; `BANDWIDTH` read in kbps, `RESOLUTION` as the size), each variant standing for a
    /// MediaFile. Without `--bandwidth`, under `--network` the target is the profile's rate when the download starts,
    /// as an adaptive player's first estimate is (the choice `--bandwidth auto` makes for MediaFiles too).
    /// `type`: what each stand-in is (the DASH type for a DASH manifest's representations, as "why" then says).
    static func variantChooser(_ criteria: MediaSelectionCriteria, network: SessionConfiguration.NetworkConditions? = nil,
                               type: String = hlsType) -> VariantChooser {
        let target = criteria.targetBitrateKbps ?? network?.profile.targetKbps
        let rule = MediaSelectionCriteria(targetBitrateKbps: target, screenWidth: criteria.screenWidth,
                                          screenHeight: criteria.screenHeight)
        return { variants in
            let files = variants.map { variant in
                MediaFile(delivery: "streaming", type: type, width: variant.width, height: variant.height,
                          bitrate: variant.bandwidth.map { max(1, ($0 + 500) / 1000) }, url: variant.url)
            }
            guard let selection = try? MediaFileSelector.select(from: files, criteria: rule) else {
                return VariantChoice(index: 0, reason: "the first variant")
            }
            return VariantChoice(index: selection.index - 1, reason: selection.reason)
        }
    }

    /// The download of `source` under `network`, or the 402 of a file not ready to play within the media timeout.
    static func delivery(of source: any MediaSource, at location: String, network: SessionConfiguration.NetworkConditions,
                         media: any MediaOpening, streaming: StreamingOptions? = nil) throws(MediaError) -> MediaDelivery {
        // The open's timeline pass mapped a local file's bytes already; remote media is requested again for it.
        let map: DeliveryMap
        if let mapped = source.deliveryMap { map = mapped } else {
            map = try media.deliveryMap(location, timelineStart: source.info.timeline.start, streaming: streaming)
        }
        let delivery = MediaDelivery(profile: network.profile, map: map, startupBuffer: network.startupBuffer,
                                     rebuffer: network.rebuffer, stallTimeout: network.stallTimeout)
        let needed = map.bytesNeeded(through: network.startupBuffer)
        guard delivery.isReady(within: network.mediaTimeout) else {
            let when = delivery.startupDelay.map { "they arrive at \($0.millisecondText) s" } ?? "they never arrive"
            throw MediaError.networkTimedOut(location: location, message:
                "media not ready to play within the media timeout of \(network.mediaTimeout.millisecondText) s on network \(network.profile): "
                + "\(network.startupBuffer.millisecondText) s of it needs its first \(needed) of \(map.size) bytes\(map.headerAtEnd ? " (its MP4 header is at the end)" : ""), and \(when)")
        }
        return delivery
    }
}
