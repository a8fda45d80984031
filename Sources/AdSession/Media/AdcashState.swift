import Primitives
import Foundation
import PlayerEngine
import VAST

/// The Adcash SDK's quality memory (seed 000, Table 5): the quality and download time of the last media file,
/// which decide the next quality (a fast download steps up, a slow one down; none yet → low).
public struct AdcashState: Codable, Sendable, Equatable {
    /// The quality of the last media file downloaded.
    public var quality: AdcashQuality
    /// Seconds the last download took.
    public var downloadSeconds: Double

    /// A state with `quality` and the download time of that quality's file, in seconds.
    public init(quality: AdcashQuality, downloadSeconds: Double) {
        self.quality = quality
        self.downloadSeconds = downloadSeconds
    }

    /// The state saved at `path`, or nil when there is none (or it cannot be read).
    public static func load(_ path: String) -> AdcashState? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(AdcashState.self, from: data)
    }

    /// Writes the state to `path` as pretty-printed JSON, replacing the file whole.
    /// - Throws: when the file cannot be written.
    public func save(_ path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        // Replaced whole (`OutputFile`): a failed save leaves the last state as it was.
        try OutputFile.write(String(decoding: try encoder.encode(self), as: UTF8.self), to: path, option: "--adcash-state")
    }

    /// The quality for the next ad, given the state at `path` (Table 5; no state → low).
    public static func nextQuality(statePath path: String) -> AdcashQuality {
        let last = load(path)
        return AdcashQuality.next(after: last?.quality, downloadSeconds: last?.downloadSeconds)
    }

    /// Times the download of `location` as the Adcash SDK does before playing: one full read of the file (FFmpeg's
    /// demuxer, no decode), on the wall clock.
    static func timeDownload(_ location: String, media: any MediaOpening, clock: any Clock<Duration>) throws(MediaError) -> Double {
        var failure: MediaError?
        let elapsed = clock.measure {
            do throws(MediaError) {
                let source = try media.openForDemux(location)
                while try source.readPacket() {}
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return elapsed.seconds
    }
}
