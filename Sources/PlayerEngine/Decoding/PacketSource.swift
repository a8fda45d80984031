/// Reads a media file's compressed packets to the end without decoding: what a full download costs.
public protocol PacketSource: AnyObject {
    /// Reads the next packet; false after the last.
    func readPacket() throws(MediaError) -> Bool
}
