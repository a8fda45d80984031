#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `Range` request header read against a file of known size (RFC 9110 §14). Only a single
/// `bytes=` range is honoured; anything else (several ranges, another unit, a malformed value) is
/// ignored and the whole file served, as the RFC allows.
enum SinkByteRange: Equatable {
    case whole
    /// Inclusive byte offsets, within the file.
    case range(start: Int, end: Int)
    /// A valid range that selects no byte of the file: 416.
    case unsatisfiable

    init(header: String?, size: Int) {
        guard let header, header.hasPrefix("bytes=") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).filter { $0 != " " }
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard !spec.contains(","), parts.count == 2 else {
            self = .whole
            return
        }
        let first = SinkFault.digits(parts[0][...]), last = SinkFault.digits(parts[1][...])
        switch (parts[0].isEmpty, parts[1].isEmpty) {
        case (true, false):
            // bytes=-N: the last N bytes.
            guard let count = last else { self = .whole; return }
            guard count > 0, size > 0 else { self = .unsatisfiable; return }
            self = .range(start: max(0, size - count), end: size - 1)
        case (false, _):
            guard let start = first, parts[1].isEmpty || last != nil else { self = .whole; return }
            if let end = last, end < start { self = .whole; return }
            guard start < size else { self = .unsatisfiable; return }
            self = .range(start: start, end: min(last ?? (size - 1), size - 1))
        case (true, true):
            self = .whole
        }
    }
}
