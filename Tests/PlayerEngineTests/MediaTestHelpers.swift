import Foundation
import TestSupport
import Testing
@_spi(LiveParts) @testable import PlayerEngine

/// Opens `location` and decodes it to the end; returns the error thrown, if any.
func decodeFailure(_ location: String, options: MediaOpenOptions = .init()) -> MediaError? {
    do {
        let source = try FFmpegMediaSource(location: location, options: options)
        while try source.nextFrame() != nil {}
        return nil
    } catch {
        return error
    }
}

/// `decodeFailure` off the cooperative pool.
func decodeFailure(_ location: String, options: MediaOpenOptions = .init()) async throws -> MediaError? {
    try await offThePool { decodeFailure(location, options: options) }
}

/// Decodes to the end (off the cooperative pool) and returns what was decoded with the error that ended the decode,
/// if any. Throws when the media does not even open.
func decodeToTheEnd(_ location: String, options: MediaOpenOptions = .init()) async throws -> (statistics: DecodeStatistics, error: MediaError?) {
    try await offThePool {
        let source = try FFmpegMediaSource(location: location, options: options)
        do throws(MediaError) {
            while try source.nextFrame() != nil {}
            return (source.statistics, nil)
        } catch {
            return (source.statistics, error)
        }
    }
}

/// The byte offset of the `occurrence`-th `marker` (an MP4 box type such as `"mdat"`) in `data`.
func byteOffset(of marker: String, in data: Data, occurrence: Int = 1) -> Int {
    var from = data.startIndex
    var found = 0
    while let range = data.range(of: Data(marker.utf8), in: from..<data.endIndex) {
        found += 1
        if found == occurrence { return range.lowerBound }
        from = range.upperBound
    }
    fatalError("\(marker) not found")
}

extension MediaOpenOptions {
    /// Options that open HLS playlists and DASH manifests (the highest bandwidth variant), as a session does for a
    /// streaming MediaFile.
    static var streamingManifests: MediaOpenOptions {
        var options = MediaOpenOptions()
        options.streaming = StreamingOptions()
        return options
    }
}
