#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore
import NIOHTTP1
import NIOPosix

/// Where a streamed answer body comes from.
enum SinkBodySource {
    /// These bytes (the pixel).
    case bytes(ByteBuffer)
    /// This many zero bytes (a `body=` fault).
    case zeros(Int)
    /// `length` bytes of an open media file from offset `start`; the file is `size` bytes long.
    case file(SinkMediaFile, start: Int, length: Int, size: Int)
}
