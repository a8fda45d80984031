import CFFmpeg

extension FormatContext {
    /// Walks the top-level boxes of an MP4 (`ftyp`, `moov`, `mdat`, …) and says where the file stops short: a box
    /// that declares more bytes than the file has, a box header cut in two, or no `moov` at all. Nil when the
    /// boxes are whole, or when the size of the input is unknown (a server that sent no length).
    ///
    /// FFmpeg reports such a cut in different ways depending on where it falls (invalid data, end of file, or a
    /// header that opens with no streams); the box sizes say it the same way every time.
    static func mp4BoxTruncation(_ io: UnsafeMutablePointer<AVIOContext>) -> String? {
        let size = avio_size(io)
        guard size > 0 else { return nil }
        var position: Int64 = 0
        var sawMovie = false
        while position < size {
            guard size - position >= 8 else {
                return "the file ends inside its MP4 header (a box header at byte \(position) is cut; the file has \(size) bytes)"
            }
            let header: BoxHeader
            switch Self.boxHeader(io, at: position, fileSize: size) {
            case .unreadable: return nil
            case let .cut(type):
                return "the file ends inside its MP4 header (the \(type) box header at byte \(position) is cut; the file has \(size) bytes)"
            case let .box(read): header = read
            }
            let (type, boxSize) = (header.type, header.size)
            // Not a box structure (or one vplay does not follow): say nothing rather than guess.
            guard boxSize >= 8, type.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
            if type == "moov" { sawMovie = true }
            if boxSize > size - position {
                let box = "the \(type) box declares \(boxSize) bytes from byte \(position); the file has \(size)"
                return type == "mdat" && !sawMovie
                    ? "the file ends inside its media data, before its MP4 header (\(box))"
                    : "the file ends inside its MP4 header (\(box))"
            }
            position += boxSize
        }
        return sawMovie ? nil : "the file ends before its MP4 header (no moov box in \(size) bytes)"
    }
}

extension FormatContext {
    /// Where an MP4's `moov` box is among its top-level boxes: its end offset, and whether it comes after the first
    /// `mdat` (a file not written for "fast start"). Nil when the boxes cannot be walked or there is no `moov`.
    static func mp4MovieBox(_ io: UnsafeMutablePointer<AVIOContext>) -> (end: Int64, afterMediaData: Bool)? {
        let size = avio_size(io)
        guard size > 0 else { return nil }
        var position: Int64 = 0
        var sawMediaData = false
        // Top-level boxes are few; the bound keeps a hostile file of 8-byte boxes from costing a read per box.
        for _ in 0..<10_000 where position + 8 <= size {
            guard case let .box(header) = Self.boxHeader(io, at: position, fileSize: size) else { return nil }
            let (type, boxSize) = (header.type, header.size)
            guard boxSize >= 8, boxSize <= size - position else { return nil }
            if type == "moov" { return (position + boxSize, sawMediaData) }
            if type == "mdat" { sawMediaData = true }
            position += boxSize
        }
        return nil
    }
}

extension FormatContext {
    struct BoxHeader {
        var type: String
        /// The box's size in bytes, header included (a 0 size, "to the end of the file", resolved).
        var size: Int64
    }

    enum BoxHeaderRead {
        case box(BoxHeader)
        /// The 64-bit size of the box whose type this is is cut off by the end of the file.
        case cut(type: String)
        /// It could not be read (a failed seek or read).
        case unreadable
    }

    /// The header of the top-level box at `position` (8 bytes, 16 with a 64-bit size), `fileSize` bytes in all.
    static func boxHeader(_ io: UnsafeMutablePointer<AVIOContext>, at position: Int64, fileSize size: Int64) -> BoxHeaderRead {
        var header = [UInt8](repeating: 0, count: 16)
        guard avio_seek(io, position, SEEK_SET) == position else { return .unreadable }
        let wanted = Int32(min(16, size - position))
        let read = header.withUnsafeMutableBufferPointer { avio_read(io, $0.baseAddress, wanted) }
        guard read >= 8 else { return .unreadable }
        let type = String(decoding: header[4..<8], as: UTF8.self)
        var boxSize = Int64(bigEndianBytes: header[0..<4])
        if boxSize == 1 {
            // A 64-bit size follows the type.
            guard read >= 16 else { return .cut(type: type) }
            boxSize = Int64(bigEndianBytes: header[8..<16])
        } else if boxSize == 0 {
            boxSize = size - position  // "to the end of the file"
        }
        return .box(BoxHeader(type: type, size: boxSize))
    }
}

private extension Int64 {
    /// A big-endian unsigned integer of up to 8 bytes (bit patterns above `Int64.max` wrap, and fail the size checks).
    init(bigEndianBytes bytes: ArraySlice<UInt8>) {
        self = bytes.reduce(0) { ($0 << 8) | Int64($1) }
    }
}
