import Foundation

/// Locates the IAB VAST samples: `<package root>/../shared/vast-samples/iab` (works from /work/vast-work and from
/// the product at /work/main).
enum IABSamples {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // VASTTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/vast-samples/iab", isDirectory: true)
        .standardizedFileURL

    static var available: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static let absentReason: Comment =
        "../shared/vast-samples/iab is absent (only the project's workspace has the IAB samples)"

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(relativePath))
    }

    /// Every sample file, relative paths, sorted.
    static func allPaths() -> [String] {
        let fm = FileManager.default
        guard let versions = try? fm.contentsOfDirectory(atPath: directory.path) else { return [] }
        return versions.sorted().flatMap { version in
            ((try? fm.contentsOfDirectory(atPath: directory.appendingPathComponent(version).path)) ?? [])
                .filter { $0.hasSuffix(".xml") }.sorted().map { "\(version)/\($0)" }
        }
    }
}

import Testing
