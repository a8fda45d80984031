/// How the sink answers one recorded request, decided when the request is recorded so that the hit's
/// status and the bytes on the wire always agree.
enum SinkAnswer: Sendable, Equatable {
    /// 200 with the 43-byte tracking GIF (no body bytes for HEAD).
    case pixel
    /// 405 for methods other than GET and HEAD: recorded, but not what a beacon should be.
    case methodNotAllowed
    /// A fault's status code with an empty body.
    case status(Int)
    /// 200 with this many zero bytes.
    case body(bytes: Int)
    /// 413: the request body passed ``SinkLimits/maximumBodyBytes``; the connection closes after it.
    case contentTooLarge
    /// Close with a TCP reset, no answer.
    case reset
    /// No answer, ever.
    case hang
    /// 200 and the pixel's headers, the first bytes of its body, then nothing more.
    case stall
    /// 200 or 206 with (a range of) a media file.
    case media(SinkMediaAnswer)
    /// 416: the media file exists, the requested range lies past its end.
    case rangeNotSatisfiable(size: Int)

    /// Whether the answer is written (so a shaping fault can apply to it): not for reset, hang and the
    /// endless stall, which never finish an answer.
    var isWritten: Bool {
        switch self {
        case .reset, .hang, .stall: false
        default: true
        }
    }

    /// The status code written, or nil when nothing is written.
    var status: Int? {
        switch self {
        case .pixel: 200
        case .methodNotAllowed: 405
        case .status(let code): code
        case .body, .stall: 200
        case .media(let media): media.status
        case .rangeNotSatisfiable: 416
        case .contentTooLarge: 413
        case .reset, .hang: nil
        }
    }

    /// The answer to a request with `method` under the answer fault `fault` (nil: no fault), and how long
    /// to wait before it. `content` replaces the pixel as the plain answer to GET and HEAD (a media file).
    static func deciding(fault: SinkFault.Kind?, method: String, content: SinkAnswer? = nil) -> (answer: SinkAnswer, delay: Duration?) {
        let plain: SinkAnswer = method == "GET" || method == "HEAD" ? content ?? .pixel : .methodNotAllowed
        switch fault {
        case nil: return (plain, nil)
        case .delay(let duration): return (plain, duration)
        case .status(let code): return (.status(code), nil)
        case .body(let bytes): return (.body(bytes: bytes), nil)
        case .reset: return (.reset, nil)
        case .hang: return (.hang, nil)
        case .stall: return (.stall, nil)
        case .rate, .ttfb, .timedStall: return (plain, nil)
        }
    }
}

