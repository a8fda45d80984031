import Foundation
import Testing
import TestSupport

/// Issue 38: only the live builders construct live parts. The HTTP transports, the FFmpeg media source and the scaled
/// real-time clock have their initializers behind `@_spi(LiveParts)`, so the compiler refuses to build them anywhere
/// that does not import that interface; this test holds the other half, that in `Sources/` only the two builders do
/// (`SessionEnvironment.live` for sessions, `LiveTools` for the tools). Tests may import it to test the parts.
@Suite struct LivePartsTests {
    static let builders: Set<String> = ["Sources/AdSession/Core/SessionEnvironment+Live.swift", "Sources/AdSession/Core/LiveTools.swift"]

    @Test func onlyTheLiveBuilders_importTheLiveParts() throws {
        let sources = Repo.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        var importing: Set<String> = []
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            if text.split(separator: "\n").contains(where: { $0.hasPrefix("@_spi(LiveParts)") && $0.contains("import ") }) {
                importing.insert(String(file.path.dropFirst(Repo.root.path.count + 1)))
            }
        }
        #expect(importing == Self.builders, "files of Sources/ that import the live parts: \(importing.sorted())")
    }

    /// The live parts' initializers are declared behind the interface, so the check above is what it says.
    @Test func theLivePartsInitializers_areBehindTheInterface() throws {
        let declared: [(file: String, type: String)] = [
            ("Sources/TrackingBeacons/HTTP/HTTPBeaconTransport.swift", "HTTPBeaconTransport"),
            ("Sources/TrackingBeacons/Wire/PooledBeaconTransport.swift", "PooledBeaconTransport"),
            ("Sources/PlayerEngine/Decoding/FFmpegMediaSource.swift", "FFmpegMediaSource"),
            ("Sources/Primitives/ScaledClock.swift", "ScaledClock"),
        ]
        for (file, type) in declared {
            let text = try String(contentsOf: Repo.root.appendingPathComponent(file), encoding: .utf8)
            let initializers = text.split(separator: "\n").filter { $0.contains(" init(") && $0.contains("public") }
            #expect(!initializers.isEmpty && initializers.allSatisfy { $0.contains("@_spi(LiveParts)") },
                    "\(type)'s public initializers: \(initializers)")
        }
    }
}
