import CCompression
import Foundation

/// Decodes a tag served with `Content-Encoding` (real ad servers compress): `gzip`, `deflate` (zlib-wrapped, or raw
/// as some servers send it) and `br`, each under the same size limit as an uncompressed tag, applied to the decoded
/// bytes (a 10 KB gzip bomb that inflates to gigabytes stops at the limit). `identity` and no header pass through.
enum ContentDecoding {
    enum Failure: Error, Equatable {
        case unsupported(String)
        case corrupt(String)
        case tooLarge(Int)
    }

    /// Codings vplay asks for (`Accept-Encoding`).
    static let accepted = "gzip, deflate, br"

    /// `data` decoded by the codings of `header` (applied in order, so decoded last to first).
    static func decode(_ data: Data, contentEncoding header: String?, maxBytes: Int) throws(Failure) -> Data {
        guard let header else { return data }
        let codings = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" }
        var result = data
        for coding in codings.reversed() {
            switch coding {
            case "gzip", "x-gzip": result = try inflate(result, windowBits: 15 + 16, maxBytes: maxBytes, name: "gzip")
            case "deflate":
                // RFC 9110's deflate is zlib-wrapped; some servers send raw deflate: try the one, then the other.
                do { result = try inflate(result, windowBits: 15, maxBytes: maxBytes, name: "deflate") } catch .corrupt {
                    result = try inflate(result, windowBits: -15, maxBytes: maxBytes, name: "deflate")
                }
            case "br": result = try brotli(result, maxBytes: maxBytes)
            default: throw .unsupported(coding)
            }
        }
        return result
    }

    private static func inflate(_ input: Data, windowBits: Int32, maxBytes: Int, name: String) throws(Failure) -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .corrupt("\(name): zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status: Int32 = Z_OK
        var bytes = [UInt8](input)
        let result: Failure? = bytes.withUnsafeMutableBufferPointer { source -> Failure? in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            repeat {
                let produced = chunk.withUnsafeMutableBufferPointer { target -> Int in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    status = CCompression.inflate(&stream, Z_NO_FLUSH)
                    return target.count - Int(stream.avail_out)
                }
                if status != Z_OK && status != Z_STREAM_END && !(status == Z_BUF_ERROR && produced > 0) {
                    return .corrupt("\(name): the body is not valid \(name) data")
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > maxBytes { return .tooLarge(maxBytes) }
                if produced == 0 && status != Z_STREAM_END { return .corrupt("\(name): the body ends early") }
            } while status != Z_STREAM_END
            return nil
        }
        if let result { throw result }
        return output
    }

    private static func brotli(_ input: Data, maxBytes: Int) throws(Failure) -> Data {
        guard let state = BrotliDecoderCreateInstance(nil, nil, nil) else { throw .corrupt("br: the decoder could not start") }
        defer { BrotliDecoderDestroyInstance(state) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let bytes = [UInt8](input)
        let failure: Failure? = bytes.withUnsafeBufferPointer { source -> Failure? in
            var availableIn = source.count
            var nextIn = source.baseAddress
            while true {
                var availableOut = chunk.count
                let result = chunk.withUnsafeMutableBufferPointer { target -> BrotliDecoderResult in
                    var nextOut = target.baseAddress
                    return BrotliDecoderDecompressStream(state, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - availableOut)])
                if output.count > maxBytes { return .tooLarge(maxBytes) }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS: return nil
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                case BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT: return .corrupt("br: the body ends early")
                default: return .corrupt("br: the body is not valid brotli data")
                }
            }
        }
        if let failure { throw failure }
        return output
    }
}
