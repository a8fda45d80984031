import Foundation

/// SVTA2053 ad-creative signalling: a carriage envelope (`version`, `type`, `payload`) of slots (one ad each: `start`
/// and `duration` in seconds from the break's start, `tracking`, `skipOffset`, `clickThrough`) or of pods (their own
/// `tracking`, `slots` inside). The envelope's `version` and `type` may be absent (earlier signalling: the payload is
/// slots). Each tracking entry has a `type` (a VAST event name, `impression`, `clickTracking`, `error`, `podStart`,
/// `podEnd`) and `urls`; an `offset` (seconds from the slot's start) times it where the type does not.
public struct AdCreativeSignaling: Sendable, Equatable {
    public struct Tracking: Sendable, Equatable {
        public var type: String
        public var offset: Duration?
        public var urls: [String]
    }

    /// An ad identifier (`scheme`, e.g. `ad-id.org`, and `value`): the ad's UniversalAdId.
    public struct Identifier: Sendable, Equatable {
        public var scheme: String
        public var value: String
    }

    public struct Slot: Sendable, Equatable {
        public var identifiers: [Identifier] = []
        public var start: Duration?
        public var duration: Duration?
        public var tracking: [Tracking]
        public var skipOffset: Duration?
        public var clickThrough: String?
    }

    /// A pod: its start from the signal's anchor, its length, its own tracking, and which of `slots` are its.
    public struct Pod: Sendable, Equatable {
        public var start: Duration?
        public var duration: Duration?
        public var tracking: [Tracking]
        public var slots: Range<Int>
    }

    /// The slots, in order (a pod's slots inline).
    public var slots: [Slot]
    /// The pods, when the envelope carries pods (`type` `pod`, or items with `slots`).
    public var pods: [Pod] = []
    /// The pods' own tracking (`podStart`, `podEnd`).
    public var podTracking: [Tracking] { pods.flatMap(\.tracking) }

    /// The most slots, and tracking URLs in all, one envelope may carry.
    static let maxSlots = 1000
    static let maxURLs = 10_000

    /// Reads an envelope from its JSON (bounded: 32 levels, 1,000 slots, 10,000 URLs, times within a day).
    public static func read(_ data: Data) -> Result<AdCreativeSignaling, InterstitialError> {
        if let offset = JSONDepth.exceeds(data, limit: 32) {
            return .failure(InterstitialError("X-AD-CREATIVE-SIGNALING nests deeper than 32 levels (at byte \(offset))"))
        }
        guard let raw = try? JSONDecoder().decode(RawEnvelope.self, from: data) else {
            return .failure(InterstitialError("X-AD-CREATIVE-SIGNALING is not an SVTA2053 envelope (JSON with a \"payload\" array)"))
        }
        return build(raw)
    }

    /// Reads the base64 text of an `X-AD-CREATIVE-SIGNALING` attribute.
    public static func read(base64 text: String) -> Result<AdCreativeSignaling, InterstitialError> {
        guard let data = Data(base64Encoded: text.trimmingCharacters(in: .whitespaces), options: .ignoreUnknownCharacters) else {
            return .failure(InterstitialError("X-AD-CREATIVE-SIGNALING is not base64"))
        }
        return read(data)
    }

    static func build(_ raw: RawEnvelope) -> Result<AdCreativeSignaling, InterstitialError> {
        var slots: [Slot] = [], pods: [Pod] = [], urls = 0
        func tracking(_ entries: [RawTracking]?) throws(InterstitialError) -> [Tracking] {
            try (entries ?? []).map { entry throws(InterstitialError) in
                urls += entry.urls?.count ?? 0
                guard urls <= maxURLs else { throw InterstitialError("X-AD-CREATIVE-SIGNALING lists more than \(maxURLs) tracking URLs") }
                return Tracking(type: entry.type ?? "", offset: try seconds(entry.offset, "a tracking offset"), urls: entry.urls ?? [])
            }
        }
        func slot(_ raw: RawItem) throws(InterstitialError) -> Slot {
            Slot(identifiers: (raw.identifiers ?? []).prefix(16).map { Identifier(scheme: $0.scheme ?? "unknown", value: $0.value ?? "unknown") },
                 start: try seconds(raw.start, "a slot's start"), duration: try seconds(raw.duration, "a slot's duration"),
                 tracking: try tracking(raw.tracking), skipOffset: try seconds(raw.skipOffset, "a slot's skipOffset"), clickThrough: raw.clickThrough)
        }
        do throws(InterstitialError) {
            let podEnvelope = raw.type == "pod"
            for item in raw.payload {
                if podEnvelope || item.slots != nil {
                    let own = try tracking(item.tracking)
                    let first = slots.count
                    for inner in item.slots ?? [] { slots.append(try slot(inner)) }
                    pods.append(Pod(start: try seconds(item.start, "a pod's start"), duration: try seconds(item.duration, "a pod's duration"),
                                       tracking: own, slots: first..<slots.count))
                } else {
                    slots.append(try slot(item))
                }
                guard slots.count <= maxSlots else { throw InterstitialError("X-AD-CREATIVE-SIGNALING lists more than \(maxSlots) slots") }
            }
        } catch {
            return .failure(error)
        }
        return .success(AdCreativeSignaling(slots: slots, pods: pods))
    }

    /// Seconds as a duration: finite, 0 to a day.
    static func seconds(_ value: Double?, _ what: String) throws(InterstitialError) -> Duration? {
        guard let value else { return nil }
        guard value.isFinite, value >= 0, value <= 86_400 else { throw InterstitialError("X-AD-CREATIVE-SIGNALING: \(what) of \(value) s is not a time within a day") }
        return .milliseconds(roundingSeconds: value)
    }

    struct RawEnvelope: Decodable {
        var version: Double?
        var type: String?
        var payload: [RawItem]
    }

    struct RawItem: Decodable {
        var start: Double?
        var duration: Double?
        var tracking: [RawTracking]?
        var skipOffset: Double?
        var clickThrough: String?
        var slots: [RawItem]?
        var identifiers: [RawIdentifier]?
    }

    struct RawIdentifier: Decodable {
        var scheme: String?
        var value: String?
    }

    struct RawTracking: Decodable {
        var type: String?
        var offset: Double?
        var urls: [String]?
    }
}
