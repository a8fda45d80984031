/// The result of `MediaFileSelector.select`.
public struct MediaSelection: Sendable, Hashable, Codable {
    /// The chosen file.
    public var file: MediaFile
    /// Its 1-based position among the Linear's MediaFiles.
    public var index: Int
    /// Why it was chosen, for humans (`vplay inspect`).
    public var reason: String
    /// Every other MediaFile with why it was not chosen, in document order.
    public var rejected: [RejectedMediaFile]

    public init(file: MediaFile, index: Int, reason: String, rejected: [RejectedMediaFile]) {
        self.file = file
        self.index = index
        self.reason = reason
        self.rejected = rejected
    }
}
