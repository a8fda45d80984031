#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a media request finds.
enum SinkMediaLookup {
    /// A regular file, open, and the answer for it (200, or 206 for a satisfiable range).
    case file(SinkMediaFile, SinkMediaAnswer)
    /// Nothing servable at that path: 404.
    case notFound
    /// The file exists but the range starts past its end: 416.
    case unsatisfiable(size: Int)

    /// The plain answer (no fault) to this lookup.
    var answer: SinkAnswer {
        switch self {
        case .file(_, let answer): .media(answer)
        case .notFound: .status(404)
        case .unsatisfiable(let size): .rangeNotSatisfiable(size: size)
        }
    }
}
