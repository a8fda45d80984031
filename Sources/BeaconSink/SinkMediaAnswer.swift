#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The head of a media answer: which bytes of which size of file, and as what type.
struct SinkMediaAnswer: Sendable, Equatable {
    /// 200 (whole file) or 206 (a range).
    var status: Int
    var contentType: String
    var fileSize: Int
    /// Offset of the first byte sent.
    var start: Int
    /// Bytes sent (the Content-Length).
    var length: Int
}
