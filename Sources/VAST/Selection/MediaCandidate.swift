/// One file of a `MediaRanking`: tried in turn until one opens.
public struct MediaCandidate: Sendable, Hashable {
    /// 1-based position among the Linear's MediaFiles.
    public var index: Int
    public var file: MediaFile
    /// Why it ranks here, among the candidates left at its turn.
    public var why: MediaChoiceReason
    /// When both progressive files and streaming manifests were left at its turn: whether the streaming kind was
    /// preferred (the other kind set aside); nil when only one kind was left.
    public var preferStreaming: Bool?
}
