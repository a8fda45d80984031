import Foundation

/// Why a tracking document cannot be played: what a player would say refusing it.
public struct TrackingDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension TrackingDocument {
    /// What a tracking document may hold before it is refused: a real one lists a few avails of a few ads of a
    /// dozen events each (MediaTailor pages its answer with `nextToken`).
    public struct Limits: Sendable, Equatable {
        /// Array and object nesting; the schema's deepest is 6.
        public var maxDepth = 32
        public var maxAvails = 1_000
        public var maxAds = 10_000
        /// Tracking events, the breaks' and the ads' together.
        public var maxEvents = 100_000
        public var maxBeaconURLs = 100_000
        /// Latest time a document may name: a day of stream.
        public var maxTime: Duration = .seconds(86_400)

        public init() {}
    }

    /// Reads a document (JSON, at most `maxBytes` already by its fetch), refusing anything a player could not play:
    /// not JSON, nested too deep, too many entries, times that are negative, not numbers or past `maxTime`.
    public static func read(_ data: Data, limits: Limits = Limits()) -> Result<TrackingDocument, TrackingDocumentError> {
        if let depth = JSONDepth.exceeds(data, limit: limits.maxDepth) {
            return .failure(TrackingDocumentError("the tracking document nests deeper than \(limits.maxDepth) levels (at byte \(depth))"))
        }
        let raw: RawDocument
        do {
            raw = try JSONDecoder().decode(RawDocument.self, from: data)
        } catch let error as TrackingDocumentError {
            return .failure(error)
        } catch {
            return .failure(TrackingDocumentError("not a tracking document (JSON with \"avails\"): \(Self.describe(error))"))
        }
        guard let avails = raw.avails else { return .failure(TrackingDocumentError("not a tracking document: it has no \"avails\"")) }
        do {
            var counter = Counter(limits: limits)
            let document = TrackingDocument(avails: try avails.enumerated().map { try $0.element.avail(number: $0.offset + 1, counter: &counter) },
                                            nextToken: raw.nextToken, nonLinearCount: (raw.nonLinearAvails?.count ?? 0))
            return .success(document)
        } catch let error as TrackingDocumentError {
            return .failure(error)
        } catch {
            return .failure(TrackingDocumentError("\(error)"))
        }
    }

    private static func describe(_ error: Error) -> String {
        switch error as? DecodingError {
        case let .typeMismatch(_, context)?, let .valueNotFound(_, context)?, let .keyNotFound(_, context)?, let .dataCorrupted(context)?:
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        default: return "\(error)"
        }
    }

    /// Counts entries against the limits as the document is built.
    struct Counter {
        let limits: Limits
        var ads = 0, events = 0, urls = 0

        mutating func add(ads count: Int = 0, events eventCount: Int = 0, urls urlCount: Int = 0) throws {
            ads += count
            events += eventCount
            urls += urlCount
            if ads > limits.maxAds { throw TrackingDocumentError("the tracking document lists more than \(limits.maxAds) ads") }
            if events > limits.maxEvents { throw TrackingDocumentError("the tracking document lists more than \(limits.maxEvents) tracking events") }
            if urls > limits.maxBeaconURLs { throw TrackingDocumentError("the tracking document lists more than \(limits.maxBeaconURLs) beacon URLs") }
        }

        /// Seconds as a stream time, milliseconds kept (17.817 is 17 817 ms, not 17 816.999…).
        func time(_ seconds: Double?, _ what: @autoclosure () -> String, required: Bool = true) throws -> Duration {
            guard let seconds else {
                if required { throw TrackingDocumentError("\(what()) has no time") }
                return .zero
            }
            guard seconds.isFinite, seconds >= 0, seconds <= limits.maxTime.seconds else {
                throw TrackingDocumentError("\(what()): \(seconds) s is not a time in a stream (0 to \(Int(limits.maxTime.seconds)) s)")
            }
            return .milliseconds(roundingSeconds: seconds)
        }
    }
}

/// The document as JSON has it; unknown keys are ignored (the schema has many a player does not need).
private struct RawDocument: Decodable {
    var avails: [RawAvail]?
    var nextToken: String?
    var nonLinearAvails: [Ignored]?
}

private struct RawAvail: Decodable {
    var availId: LooseString?
    var startTimeInSeconds: Double?
    var durationInSeconds: Double?
    var adBreakTrackingEvents: [RawEvent]?
    var ads: [RawAd]?

    func avail(number: Int, counter: inout TrackingDocument.Counter) throws -> TrackingDocument.Avail {
        guard number <= counter.limits.maxAvails else { throw TrackingDocumentError("the tracking document lists more than \(counter.limits.maxAvails) avails") }
        let name = "avail \(number)"
        let ads = ads ?? []
        try counter.add(ads: ads.count)
        return TrackingDocument.Avail(
            availID: availId?.value, start: try counter.time(startTimeInSeconds, name), duration: try counter.time(durationInSeconds, "\(name)'s duration", required: false),
            breakEvents: try (adBreakTrackingEvents ?? []).enumerated().map { try $0.element.event("\(name) break event \($0.offset + 1)", counter: &counter) },
            ads: try ads.enumerated().map { try $0.element.ad("\(name) ad \($0.offset + 1)", counter: &counter) })
    }
}

private struct RawAd: Decodable {
    var adId: LooseString?
    var creativeId: LooseString?
    var adTitle: String?
    var startTimeInSeconds: Double?
    var durationInSeconds: Double?
    var trackingEvents: [RawEvent]?

    func ad(_ name: String, counter: inout TrackingDocument.Counter) throws -> TrackingDocument.Ad {
        TrackingDocument.Ad(adID: adId?.value, creativeID: creativeId?.value, title: adTitle, start: try counter.time(startTimeInSeconds, name),
                            duration: try counter.time(durationInSeconds, "\(name)'s duration"),
                            events: try (trackingEvents ?? []).enumerated().map { try $0.element.event("\(name) event \($0.offset + 1)", counter: &counter) })
    }
}

private struct RawEvent: Decodable {
    var eventId: LooseString?
    var eventType: String?
    var beaconUrls: [String]?
    var startTimeInSeconds: Double?
    var durationInSeconds: Double?

    func event(_ name: String, counter: inout TrackingDocument.Counter) throws -> TrackingDocument.Event {
        guard let eventType, !eventType.isEmpty else { throw TrackingDocumentError("\(name) has no eventType") }
        let urls = beaconUrls ?? []
        try counter.add(events: 1, urls: urls.count)
        return TrackingDocument.Event(eventID: eventId?.value, type: eventType, beaconURLs: urls, start: try counter.time(startTimeInSeconds, "\(name) (\(eventType))"),
                                      duration: try counter.time(durationInSeconds, "\(name)'s duration", required: false))
    }
}

/// An id written as a string or a number.
private struct LooseString: Decodable {
    var value: String
    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            value = text
        } else if let number = try? container.decode(Int64.self) {
            value = String(number)
        } else {
            value = String(try container.decode(Double.self))
        }
    }
}

/// Any JSON value, read and dropped.
private struct Ignored: Decodable {
    init(from decoder: any Decoder) throws {}
}
