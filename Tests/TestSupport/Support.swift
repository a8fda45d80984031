import Primitives
import Foundation

/// Paths of the repository and its sibling `../shared` folder, found from this file.
public enum Repo {
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static func media(_ name: String) -> String { root.appendingPathComponent("media").appendingPathComponent(name).path }
    /// The IAB sample ad's media, present only in the project's workspace (not in a user's clone).
    public static let iabMP4 = root.deletingLastPathComponent().appendingPathComponent("shared/vast-samples/iab/media/VAST-4.0-Short-Intro.mp4").path
    /// The IAB samples the tests use are all there: the clip and the tags they play (not a partial copy).
    public static var iabAvailable: Bool {
        let iab = URL(fileURLWithPath: iabMP4).deletingLastPathComponent().deletingLastPathComponent()
        return [iabMP4, iab.appendingPathComponent("vast4.0/Event_Tracking-test.xml").path,
                iab.appendingPathComponent("vast4.1/Wrapper_Tag-test.xml").path].allSatisfy { FileManager.default.fileExists(atPath: $0) }
    }
    /// Why IAB-sample tests skip on a user's clone.
    public static let iabAbsent = "../shared/vast-samples/iab is absent (only the project's workspace has the IAB samples)"
    /// The built `vplay` binary next to the test bundle (swift test builds it first).
    public static var vplayBinary: String { built("vplay") }
    /// The built `peak-rss` meter (`Tests/PeakRSS`), next to `vplay`.
    public static var peakRSSMeter: String { built("peak-rss") }

    private static func built(_ name: String) -> String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for candidate in [bundle.appendingPathComponent(name), bundle.deletingLastPathComponent().appendingPathComponent(name)] {
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
        }
        return root.appendingPathComponent(".build/debug/\(name)").path
    }
}

/// `ffprobe -count_frames`: the oracle for frame counts and durations.
public struct ProbeTruth: Sendable {
    public var duration: Double
    /// The container's start time, seconds (0 when ffprobe gives none).
    public var start: Double
    /// Decoded frames per stream index.
    public var frames: [Int: Int]
    /// Where each stream ends, in seconds from the container's start (`start_time + duration - format start`),
    /// for the streams whose duration ffprobe knows.
    public var streamEnds: [Int: Double]

    /// Runs ffprobe off the cooperative pool (it decodes the whole file: seconds for a long one).
    /// - Parameter streams: ffprobe's `-select_streams` (`v:1`, `a`): only those are read and counted, as a player
    ///   of one representation of a DASH manifest reads only its own.
    public static func of(_ path: String, selecting streams: String? = nil) async throws -> ProbeTruth {
        let output = try await offThePool { try run("ffprobe", ["-v", "error", "-count_frames"] + (streams.map { ["-select_streams", $0] } ?? []) + [
                                         "-show_entries", "format=duration,start_time:stream=index,nb_read_frames,start_time,duration",
                                         "-of", "json", path]) }
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as! [String: Any]
        let format = object["format"] as! [String: Any]
        let start = (format["start_time"] as? String).flatMap(Double.init) ?? 0
        var frames: [Int: Int] = [:]
        var streamEnds: [Int: Double] = [:]
        for stream in object["streams"] as! [[String: Any]] {
            let index = stream["index"] as! Int
            frames[index] = Int(stream["nb_read_frames"] as! String)!
            if let duration = (stream["duration"] as? String).flatMap(Double.init) {
                let first = (stream["start_time"] as? String).flatMap(Double.init) ?? 0
                streamEnds[index] = first + duration - start
            }
        }
        return ProbeTruth(duration: Double(format["duration"] as! String)!, start: start, frames: frames, streamEnds: streamEnds)
    }
}

/// Runs a program from PATH and returns its standard output; throws when it fails.
@discardableResult
public func run(_ program: String, _ arguments: [String]) throws -> String {
    let process = LeakSanitizer.ignore(Process())
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [program] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.runAlone()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(program) exited \(process.terminationStatus)"])
    }
    return String(decoding: data, as: UTF8.self)
}

/// Runs blocking work (FFmpeg, subprocesses, sockets) on a thread of its own, so that a test waiting for it does not
/// hold one of the few cooperative threads (one per core) that every other test's async code needs meanwhile.
public func offThePool<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
    }
}

/// `run` (a program from PATH) off the cooperative pool.
public func runOffThePool(_ program: String, _ arguments: [String]) async throws {
    try await offThePool { _ = try run(program, arguments) }
}

/// Prints a measurement (peak RSS, descriptor counts…) when `VPLAY_MEASURE` is set, so the numbers a bound test
/// checks can be read and recorded (`VPLAY_MEASURE=1 swift test --filter MemoryBoundsTests`); silent otherwise.
public func measurement(_ text: @autoclosure () -> String) {
    if ProcessInfo.processInfo.environment["VPLAY_MEASURE"] != nil { print("measured: \(text())") }
}

/// A temporary folder removed when the value is released.
public final class TemporaryFolder {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    deinit { try? FileManager.default.removeItem(at: url) }

    public func write(_ name: String, _ text: String) throws -> String { try write(name, Data(text.utf8)) }

    public func write(_ name: String, _ data: Data) throws -> String {
        let path = url.appendingPathComponent(name).path
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// Deterministic pseudo-random bytes (SplitMix64), so corrupt files are the same on every run.
public struct SeededBytes {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt8 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return UInt8(truncatingIfNeeded: z ^ (z >> 31))
    }
}
