import Foundation
import Primitives

/// The combined certificate bundle FFmpeg reads (`ProxySettings.combinedCAFile`): one file per process, in a folder
/// of its own under the temporary directory (created new, so no existing file is ever written), removed at exit.
enum TrustBundle {
    /// The folder, once made, and the text last written (a command line's options are resolved more than once: the
    /// same bundle is not read and written again).
    private static let state = Locked<(folder: String?, written: String?)>((nil, nil))

    static func write(_ text: String) throws -> String {
        try state.withLock { state in
            if state.folder == nil {
                let base = FileManager.default.temporaryDirectory.appendingPathComponent("vplay-ca-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: base, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                state.folder = base.path
                atexit { TrustBundle.remove() }
            }
            let file = URL(fileURLWithPath: state.folder!).appendingPathComponent("ca-bundle.pem")
            if state.written != text {
                try Data(text.utf8).write(to: file, options: .atomic)
                state.written = text
            }
            return file.path
        }
    }

    private static func remove() {
        if let path = state.withLock({ $0.folder }) { try? FileManager.default.removeItem(atPath: path) }
    }
}
