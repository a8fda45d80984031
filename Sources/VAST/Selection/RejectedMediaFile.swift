/// A MediaFile that was not played, and why.
public struct RejectedMediaFile: Sendable, Hashable {
    /// 1-based position among the Linear's MediaFiles.
    public var index: Int
    /// The file.
    public var file: MediaFile
    /// Why it was not played.
    public var why: MediaFileRejection

    /// `why` for humans (`"empty URL"`, `"playable; not chosen (id low, video/mp4, 600 kbps)"`…).
    public var reason: String { why.text(for: file) }

    public init(index: Int, file: MediaFile, why: MediaFileRejection) {
        self.index = index
        self.file = file
        self.why = why
    }
}
