import AdSession
import Foundation
import FuzzDriver

/// One capture file, read in each of the formats `vplay audit` reads (a HAR, a sink log, a beacon log): JSON from a
/// device or a proxy is untrusted input. Any input may be refused with a `ReadError`; none may crash, hang or leak,
/// and every request read has a time within what a capture can hold (`CapturedRequest.latestTime`) or none.
func fuzzCapture(_ input: UnsafeRawBufferPointer) -> CInt {
    let data = Data(input)
    for format in CapturedRequest.Format.allCases {
        guard let requests = try? CapturedRequest.parse(data, format: format) else { continue }
        for request in requests {
            if let sentAt = request.sentAt { precondition((0...CapturedRequest.latestTime).contains(sentAt), "time \(sentAt) out of bounds") }
            precondition(request.index >= 1)
        }
    }
    return 0
}

exit(vplay_fuzz_run(CommandLine.argc, CommandLine.unsafeArgv) { data, size in fuzzCapture(UnsafeRawBufferPointer(start: data, count: size)) })
