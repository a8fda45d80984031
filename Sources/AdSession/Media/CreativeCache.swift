import Foundation
import PlayerEngine
import Primitives

/// What creative QA measured of each media file in one `vplay lint` call, so a clip that many tags play is decoded
/// once: keyed by where it was opened (after `--map`) and, for a local file, its size and modification time. A
/// remote URL is taken to hold the same bytes for the length of one call.
public final class CreativeCache: Sendable {
    /// One file's measurement, or the error that stopped its decode.
    struct Entry: Sendable {
        var report: CreativeReport?
        var failure: MediaError?
    }

    private let entries = Locked<[String: Entry]>([:])

    public init() {}

    func entry(for location: String) -> Entry? { entries.withLock { $0[Self.key(location)] } }

    func store(_ entry: Entry, for location: String) { entries.withLock { $0[Self.key(location)] = entry } }

    /// The location with, for a local file, what changes when the file does.
    static func key(_ location: String) -> String {
        guard !location.contains("://") else { return location }
        let path = URL(fileURLWithPath: location).standardizedFileURL.path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return path }
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(path)\u{0}\(size)\u{0}\(modified)"
    }
}
