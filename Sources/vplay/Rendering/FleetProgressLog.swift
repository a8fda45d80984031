import AdSession
import ArgumentParser
import Foundation
import Primitives

/// `fleet --progress FILE`: each progress report as one JSON line, written as it comes (the studio follows the file).
final class FleetProgressLog: Sendable {
    private let handle: Locked<Box?>

    private struct Box: @unchecked Sendable { let handle: FileHandle }

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw ValidationError("--progress \(path): cannot be written")
        }
        self.handle = Locked(Box(handle: handle))
    }

    func write(_ progress: FleetProgress) {
        let reach = progress.reach.keys.sorted().map { "\"\($0)\":\(progress.reach[$0]!)" }.joined(separator: ",")
        let line = String(format: "{\"sessionsDone\":%d,\"sessions\":%d,\"beaconsSent\":%d,\"beaconsAnswered\":%d,\"seconds\":%.3f,\"events\":{%@}}\n",
                          progress.sessionsDone, progress.sessions, progress.beaconsSent, progress.beaconsAnswered, progress.seconds, reach)
        handle.withLock { $0?.handle.write(Data(line.utf8)) }
    }

    func close() {
        handle.withLock { box in
            try? box?.handle.close()
            box = nil
        }
    }
}
