/// A MediaFile that was not chosen, and why.
public struct RejectedMediaFile: Sendable, Hashable, Codable {
    /// 1-based position among the Linear's MediaFiles.
    public var index: Int
    /// The file.
    public var file: MediaFile
    /// Why it was not chosen (`"streaming delivery"`, `"VPAID apiFramework"`, `"playable; bitrate 600 kbps lost
    /// to 1000 kbps"`…).
    public var reason: String

    public init(index: Int, file: MediaFile, reason: String) {
        self.index = index
        self.file = file
        self.reason = reason
    }
}
