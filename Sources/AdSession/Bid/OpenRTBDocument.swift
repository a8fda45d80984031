import Foundation
import VAST

/// The parts of an OpenRTB 2.x bid response (and, optionally, the bid request it answers) a player needs to show the
/// winning bid's markup and send its notices (OpenRTB 2.6 §3.2.1, §3.2.2, §3.2.3; the request's `id` and `imp`).
/// Every other field is ignored.
struct OpenRTBDocument: Sendable, Equatable {
    struct Bid: Sendable, Equatable, Decodable {
        var id: String?
        var impid: String?
        var price: Double?
        var adid: String?
        var nurl: String?
        var burl: String?
        var lurl: String?
        var adm: String?
        var crid: String?
    }

    struct SeatBid: Sendable, Equatable, Decodable {
        var seat: String?
        var bid: [Bid]?
    }

    struct Response: Sendable, Equatable, Decodable {
        var id: String?
        var bidid: String?
        var cur: String?
        var nbr: Int?
        var seatbid: [SeatBid]?
    }

    struct Request: Sendable, Equatable, Decodable {
        struct Imp: Sendable, Equatable, Decodable {
            struct Quantity: Sendable, Equatable, Decodable { var multiplier: Double? }
            var id: String?
            var video: JSONPresence?
            var qty: Quantity?
        }
        var id: String?
        var imp: [Imp]?
        var cur: [String]?
    }

    /// Whether an object was there, whatever it held.
    struct JSONPresence: Sendable, Equatable, Decodable {
        init(from decoder: any Decoder) throws {}
    }

    var response: Response
    var request: Request?

    /// The largest document read: a bid response carrying a VAST document in `adm` is well under this; the VAST
    /// inside is limited again by the hardened reader.
    static let maxBytes = 2 << 20
    /// The deepest array and object nesting read (`ext` objects included).
    static let maxDepth = 32

    /// Reads a bid response, or a pair `{"request": …, "response": …}` (also `bidRequest`/`bidResponse`).
    /// An unreadable document is VAST 300 (the bid response stands where a wrapper would: it points at the markup).
    static func read(_ data: Data) -> Result<OpenRTBDocument, VASTError> {
        guard data.count <= maxBytes else {
            return .failure(VASTError(.wrapperGeneral, "bid response: \(data.count) bytes, more than the \(maxBytes) read"))
        }
        // Foundation's parser recurses: nesting is bounded before it reads (OpenRTB's own objects nest 6 deep).
        if let offset = JSONDepth.exceeds(data, limit: maxDepth) {
            return .failure(VASTError(.wrapperGeneral, "bid response: nested more than \(maxDepth) deep at byte \(offset)"))
        }
        do {
            let read = try JSONDecoder().decode(Read.self, from: data)
            return .success(OpenRTBDocument(response: read.response ?? read.bare, request: read.request))
        } catch let error as DecodingError where Self.atRoot(error) {
            return .failure(VASTError(.wrapperGeneral, "bid response: not a JSON object (an OpenRTB 2.x BidResponse, or {\"request\": …, \"response\": …})"))
        } catch {
            return .failure(VASTError(.wrapperGeneral, "bid response: not an OpenRTB 2.x BidResponse: \(Self.describe(error))"))
        }
    }

    /// The document read once: a pair's request and response (`request`/`response`, or `bidRequest`/`bidResponse`),
    /// and the same object read as a bare response (every field optional: a pair's is empty).
    private struct Read: Decodable {
        var request: Request?
        var response: Response?
        var bare: Response

        private enum Keys: String, CodingKey { case request, response, bidRequest, bidResponse }

        init(from decoder: any Decoder) throws {
            let pair = try decoder.container(keyedBy: Keys.self)
            request = try pair.decodeIfPresent(Request.self, forKey: .request) ?? pair.decodeIfPresent(Request.self, forKey: .bidRequest)
            response = try pair.decodeIfPresent(Response.self, forKey: .response) ?? pair.decodeIfPresent(Response.self, forKey: .bidResponse)
            bare = response == nil ? try Response(from: decoder) : Response()
        }
    }

    /// Whether the document itself was wrong (not JSON, not an object), not one of its fields.
    static func atRoot(_ error: DecodingError) -> Bool {
        switch error {
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .keyNotFound(_, context), let .dataCorrupted(context):
            context.codingPath.isEmpty
        @unknown default: false
        }
    }

    /// A decoding error in one line: the field's path and what was wrong.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "unreadable" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return keys.isEmpty ? "the document" : String(keys.drop { $0 == "." })
        }
        switch error {
        case let .typeMismatch(type, context): return "\(path(context)) is not a \(type == Double.self ? "number" : type == String.self ? "string" : "\(type)")"
        case let .valueNotFound(_, context), let .dataCorrupted(context): return "\(path(context)): \(context.debugDescription)"
        case let .keyNotFound(key, context): return "\(path(context)).\(key.stringValue) is missing"
        @unknown default: return "unreadable"
        }
    }
}
