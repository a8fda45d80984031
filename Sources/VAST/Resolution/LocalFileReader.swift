import Foundation

/// Reads a local file for the fetchers, with a size cap so a huge or special file cannot exhaust memory.
enum LocalFileReader {
    static func read(_ fileURL: URL, maxBytes: Int) throws(VASTError) -> Data {
        guard let handle = try? FileHandle(forReadingFrom: fileURL) else {
            throw VASTError(.wrapperTimeout, "cannot open \(fileURL.path)")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            throw VASTError(.wrapperTimeout, "cannot read \(fileURL.path)")
        }
        if data.count > maxBytes {
            // The parser's size cap (`ParserLimits.maxBytes`): exceeding it is error 100, wherever it is found.
            throw VASTError(.xmlParse, "\(fileURL.path) is larger than \(maxBytes) bytes")
        }
        return data
    }
}
