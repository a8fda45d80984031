import PlayerEngine
import Primitives
import VAST

/// Opens the media file of a Linear the way a player does: the candidates of its `MediaRanking` in turn, until one
/// opens. When a file cannot be opened (not found, not media, truncated before its first frame), the next is tried, as players
/// fall back within an ad's MediaFiles; only when none opens does the ad fail, with the first (the preferred file's)
/// error. A file the user forced (`--media-file`) is the only one tried.
struct MediaOpener {
    let mappings: [URLMapping]
    var decoderThreads: Int
    let media: any MediaOpening
    /// The session's network clock: a real-time startup delay runs from the media request on it.
    let clock: any Clock<Duration>
    /// A simulated network: a file that would not be ready within its media timeout fails with 402 and the next is
    /// tried, as IMA moves on after `loadVideoTimeout`.
    var network: SessionConfiguration.NetworkConditions? = nil
    /// In real time under `--network`: the opened file reads through the profile's throttle, at this speed.
    var throttleSpeed: Double? = nil
    /// Measure the creative as it is decoded (`MediaOpenOptions.analyzeCreative`; `lint`).
    var analyzeCreative = false

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

    /// The first candidate of `ranking` that opens, or the error to report (the first candidate's); `skipped` says
    /// why each better file was passed over, in order.
    func open(_ ranking: MediaRanking, criteria: MediaSelectionCriteria, inLineTagURL: String) -> (Result<Opened, SessionError>, skipped: [String]) {
        // Files tried and not played, by position in the tag: the report lists why.
        var failures: [Int: MediaFileRejection] = [:]
        var firstFailure: SessionError?
        var skipped: [String] = []
        tries: for (rank, candidate) in ranking.candidates.enumerated() {
            switch attempt(candidate.file, criteria: criteria, inLineTagURL: inLineTagURL) {
            case let .success(opened):
                let selection = ranking.selection(at: rank, failures: failures, playedAs: Self.playedAs(candidate.file, info: opened.source.info))
                return (.success(Opened(selection: selection, location: opened.location, source: opened.source, delivery: opened.delivery,
                                        sinceRequested: opened.sinceRequested, streaming: opened.streaming)), skipped)
            case let .failure(error):
                let failure = SessionError(kind: .media, code: error.vastCode, message: error.description)
                firstFailure = firstFailure ?? failure
                // The same file listed twice is not tried twice.
                for (offset, file) in ranking.files.enumerated() where file == candidate.file {
                    failures[offset + 1] = .couldNotOpen(code: error.vastCode, message: error.description)
                }
                // Stopped (a signal): FFmpeg was told to give up, and no other file is tried.
                if criteria.forcedFile != nil || failures.count == ranking.files.count || Task.isCancelled { break tries }
                skipped.append("media file \(candidate.file.url) cannot be played (VAST \(error.vastCode): \(error.description)); trying the next one")
            }
        }
        return (.failure(firstFailure!), skipped)
    }

    /// One file opened (not yet with its report), or why it could not be.
    private struct Attempt {
        var location: String
        var source: any MediaSource
        var delivery: MediaDelivery?
        var sinceRequested: @Sendable () -> Duration
        var streaming: StreamingOptions?
    }

    /// Opens `file`: located (`--map`), opened through the throttle in real time under `--network`, and its download
    /// under the simulated network checked against the media timeout.
    private func attempt(_ file: MediaFile, criteria: MediaSelectionCriteria, inLineTagURL: String) -> Result<Attempt, MediaError> {
        let streaming = MediaFileSelector.isStreaming(file) ? StreamingOptions(chooseVariant: Self.variantChooser(
            criteria, network: network, type: MediaFileSelector.isDASH(file) ? MediaFileSelector.dashType : Self.hlsType)) : nil
        let location: String
        switch MediaLocator(mappings: mappings).locate(file.url, inLineTagURL: inLineTagURL) {
        case let .success(located): location = located
        case let .failure(error): return .failure(error)
        }
        var options = MediaOpenOptions(decoderThreads: decoderThreads)
        options.mapDelivery = network != nil
        options.analyzeCreative = analyzeCreative
        options.streaming = streaming
        if let speed = throttleSpeed, let network {
            options.throttle = MediaThrottle(profile: network.profile, speed: speed, stopwatch: { [clock] in clock.stopwatch() })
        }
        let sinceRequested = clock.stopwatch()
        do {
            let source = try media.open(location, options: options)
            let delivery = try network.map { network throws(MediaError) in
                try Self.delivery(of: source, at: location, network: network, media: media, streaming: streaming)
            }
            return .success(Attempt(location: location, source: source, delivery: delivery, sinceRequested: sinceRequested, streaming: streaming))
        } catch {
            return .failure(error)
        }
    }

    /// The MIME type an HLS variant stands in as.
    static let hlsType = "application/vnd.apple.mpegurl"

    /// What `inspect`'s "why" adds for streaming media: the HLS variant or DASH representation played, or that a
    /// file labelled `delivery="streaming"` played as the progressive file it is.
    static func playedAs(_ file: MediaFile, info: MediaInfo) -> MediaSelection.PlayedAs? {
        let dash = info.format == "dash"
        if let variant = info.variant { return .variant(dash: dash, variant) }
        if MediaFileSelector.isStreaming(file) { return .mediaPlaylist(dash: dash) }
        if file.delivery?.lowercased() == "streaming" { return .progressive(format: info.format) }
        return nil
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
