import Foundation
import PlayerEngine
import XMLReading

/// A DASH manifest's SVTA2053 signalling: `EventStream`s of scheme `urn:svta:advertising-wg:ad-creative-signaling`
/// whose `Event`s carry an envelope (JSON, or base64 in the body or `messageData`). In DASH the signalled ads are
/// stitched into the stream (SVTA gives their timing and tracking, not their media: Shaka plays them as embedded), so
/// the manifest reads as a client-side tracking document: each pod an avail, each slot an ad at the event's time
/// (`Period@start` + (`presentationTime` − `presentationTimeOffset`) / `timescale`, the pod's and slot's `start` after
/// it), each tracking entry an event at the time its type has in the ad (or at its `offset`), `podStart`/`podEnd` the
/// avail's breakStart/breakEnd. Read by the one hardened XML reader; at most 1,000 events; times within a day.
public enum DASHSignaling {
    public static let scheme = "urn:svta:advertising-wg:ad-creative-signaling"
    static let maxEvents = 1000

    /// Whether `data` is a DASH manifest: XML (its first character, after a byte-order mark and white space, `<`)
    /// whose root element `MPD` opens within its first 4 KiB.
    public static func isManifest(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        return head.drop(while: { $0 == "\u{FEFF}" || $0.isWhitespace }).first == "<" && head.contains("<MPD")
    }

    public static func read(_ data: Data, limits: ParserLimits) -> Result<TrackingDocument, TrackingDocumentError> {
        let root: XMLNode
        switch SafeXMLReader.read(data, limits: limits, document: "MPD") {
        case let .failure(failure): return .failure(TrackingDocumentError("the DASH manifest cannot be read: \(failure.message)"))
        case let .success(output): root = output.root
        }
        guard root.name == "MPD" else { return .failure(TrackingDocumentError("not a DASH manifest (its root is <\(root.name)>)")) }
        do throws(TrackingDocumentError) {
            var avails: [TrackingDocument.Avail] = []
            var periodStart = 0.0
            for period in root.children("Period") {
                if let start = period.stringAttribute("start") { periodStart = try seconds(ISODuration.seconds(start), "Period@start \(start.prefix(40))") }
                for stream in period.children("EventStream") where stream.stringAttribute("schemeIdUri") == scheme {
                    avails += try read(stream, periodStart: periodStart, count: avails.count)
                }
                if let length = period.stringAttribute("duration").flatMap(ISODuration.seconds) { periodStart += length }
            }
            guard !avails.isEmpty else { throw TrackingDocumentError("the DASH manifest has no EventStream of \(scheme)") }
            let total = root.stringAttribute("mediaPresentationDuration").flatMap(ISODuration.seconds).flatMap { $0.isFinite && $0 <= 86_400 ? $0 : nil }
            return .success(TrackingDocument(avails: avails, streamDuration: total.map(Self.duration)))
        } catch {
            return .failure(error)
        }
    }

    private static func read(_ stream: XMLNode, periodStart: Double, count: Int) throws(TrackingDocumentError) -> [TrackingDocument.Avail] {
        guard let timescale = UInt64(stream.stringAttribute("timescale") ?? "1"), timescale > 0 else {
            throw TrackingDocumentError("an EventStream's timescale is not a positive whole number")
        }
        let offset = UInt64(stream.stringAttribute("presentationTimeOffset") ?? "0") ?? 0
        var avails: [TrackingDocument.Avail] = []
        for (index, event) in stream.children("Event").enumerated() {
            guard count + avails.count < maxEvents else { throw TrackingDocumentError("the DASH manifest signals more than \(maxEvents) events") }
            let id = event.stringAttribute("id") ?? "event \(count + index + 1)"
            guard let time = UInt64(event.stringAttribute("presentationTime") ?? "0") else { throw TrackingDocumentError("Event \(id): presentationTime is not a whole number") }
            let anchor = try seconds(periodStart + (Double(time) - Double(offset)) / Double(timescale), "Event \(id)'s time")
            let length = event.stringAttribute("duration").flatMap(UInt64.init).map { Double($0) / Double(timescale) }
            let body = (event.stringAttribute("messageData") ?? event.text).trimmingCharacters(in: .whitespacesAndNewlines)
            let read = body.hasPrefix("{") ? AdCreativeSignaling.read(Data(body.utf8)) : AdCreativeSignaling.read(base64: body)
            switch read {
            case let .failure(error): throw TrackingDocumentError("Event \(id): \(error.message)")
            case let .success(signaling): avails += try self.avails(signaling, id: id, anchor: duration(anchor), length: length.map(duration))
            }
        }
        return avails
    }

    /// The signal's pods as avails (a slot envelope: one avail of its slots).
    private static func avails(_ signaling: AdCreativeSignaling, id: String, anchor: Duration, length: Duration?) throws(TrackingDocumentError) -> [TrackingDocument.Avail] {
        let pods = signaling.pods.isEmpty
            ? [AdCreativeSignaling.Pod(start: nil, duration: length, tracking: signaling.podTracking, slots: signaling.slots.indices)] : signaling.pods
        return try pods.enumerated().map { number, pod throws(TrackingDocumentError) in
            let start = anchor + (pod.start ?? .zero)
            var next = start
            let ads = try signaling.slots[pod.slots].enumerated().map { rank, slot throws(TrackingDocumentError) in
                guard let duration = slot.duration, duration > .zero else { throw TrackingDocumentError("Event \(id): slot \(rank + 1) has no duration") }
                let adStart = slot.start.map { start + $0 } ?? next
                next = adStart + duration
                return TrackingDocument.Ad(adID: "\(id)-\(number + 1)-\(rank + 1)", start: adStart, duration: duration,
                                           events: slot.tracking.map { event($0, adStart: adStart, duration: duration) })
            }
            let end = pod.duration.map { start + $0 } ?? max(next, start)
            let breakEvents = pod.tracking.flatMap { entry -> [TrackingDocument.Event] in
                switch entry.type {
                case "podStart": [TrackingDocument.Event(type: "breakStart", beaconURLs: entry.urls, start: start)]
                case "podEnd": [TrackingDocument.Event(type: "breakEnd", beaconURLs: entry.urls, start: end)]
                default: []
                }
            }
            return TrackingDocument.Avail(availID: pods.count == 1 ? id : "\(id)-\(number + 1)", start: start, duration: end - start, breakEvents: breakEvents, ads: ads)
        }
    }

    /// A tracking entry as a document event: at its offset in the ad, else where the tracked stream's rule puts its
    /// type (`TrackedStreamRules.due`), else at the ad's start.
    private static func event(_ entry: AdCreativeSignaling.Tracking, adStart: Duration, duration: Duration) -> TrackingDocument.Event {
        let at = entry.offset.map { adStart + $0 } ?? TrackedStreamRules.due(entry.type, start: adStart, duration: duration) ?? adStart
        return TrackingDocument.Event(type: entry.type, beaconURLs: entry.urls, start: at)
    }

    private static func seconds(_ value: Double?, _ what: String) throws(TrackingDocumentError) -> Double {
        guard let value, value.isFinite, value >= 0, value <= 86_400 else { throw TrackingDocumentError("\(what) is not a time within a day") }
        return value
    }

    private static func duration(_ seconds: Double) -> Duration { .milliseconds(roundingSeconds: seconds) }
}
