import Findings
import Foundation
import Primitives
import VAST
import XMLReading

/// An interstitial's assets as the VAST pod vplay plays: one inline ad per asset, in order, its media the asset's
/// HLS URI (played through vplay's HLS path), its tracking the SVTA2053 slot that goes with it (the asset's own
/// signalling, else the slot of the same rank in the list's or the date range's). Written as VAST 4.1 text, so the
/// pod is read by the one hardened reader and played, macros and all, like any other.
enum InterstitialVAST {
    /// VAST's Linear tracking events vplay's engine fires (SVTA2053 names the same events).
    static let linearEvents: Set<String> = ["creativeView", "loaded", "start", "firstQuartile", "midpoint", "thirdQuartile", "complete",
                                            "mute", "unmute", "pause", "resume", "rewind", "skip", "progress", "closeLinear",
                                            "fullscreen", "exitFullscreen", "playerExpand", "playerCollapse", "otherAdInteraction"]

    /// A pod as written: its VAST text, what writing it found, and the pod's own tracking as the break's
    /// (`podStart` → breakStart, `podEnd` → breakEnd, `error`).
    struct Written: Sendable {
        var data: Data
        var notes: [Finding]
        var tracking: [VMAPDocument.Tracking]
    }

    /// The break tracking of SVTA2053 pod entries.
    static func breakTracking(_ signaling: AdCreativeSignaling?) -> [VMAPDocument.Tracking] {
        let events = ["podStart": "breakStart", "podEnd": "breakEnd", "error": "error"]
        return (signaling?.podTracking ?? []).flatMap { entry in
            events[entry.type].map { event in entry.urls.map { VMAPDocument.Tracking(event: event, url: $0) } } ?? []
        }
    }

    /// The pod as written, every asset in it: the session stops the pod at `X-PLAYOUT-LIMIT` (the break's script gets
    /// the limit), counted in what played, so an asset that fails moves the later ones earlier.
    static func build(_ interstitial: HLSInterstitial, assets list: InterstitialAssets) -> Written {
        let name = "interstitial \"\(interstitial.id.prefix(64))\""
        var notes: [Finding] = []
        let shared = list.signaling ?? interstitial.signaling
        if let shared, list.assets.allSatisfy({ $0.signaling == nil }), shared.slots.count != list.assets.count {
            notes.append(Finding(.sgaiSignaling, "\(name): the signalling has \(shared.slots.count) slot(s) for \(list.assets.count) asset(s): slots go to assets by rank"))
        }
        var ads: [String] = []
        var start: Duration = .zero
        for (index, asset) in list.assets.enumerated() {
            // What the limit will do if every asset before this one plays (one that fails takes no time).
            if let limit = interstitial.playoutLimit, start >= limit {
                notes.append(Finding(.sgaiPlayoutLimit, "\(name): asset \(index + 1) would start at \(start.seconds) s, at or after X-PLAYOUT-LIMIT=\(limit.seconds): not played unless an asset before it fails"))
            }
            let slot = asset.signaling?.slots.first ?? shared.flatMap { index < $0.slots.count ? $0.slots[index] : nil }
            let duration = asset.duration ?? slot?.duration ?? (list.assets.count == 1 ? interstitial.duration ?? interstitial.plannedDuration : nil)
            if let limit = interstitial.playoutLimit, let duration, start < limit, start + duration > limit {
                notes.append(Finding(.sgaiPlayoutLimit, "\(name): X-PLAYOUT-LIMIT=\(limit.seconds) stops asset \(index + 1) (\(start.seconds) to \((start + duration).seconds) s) \((limit - start).seconds) s in: no complete"))
            }
            if let slot, let declared = slot.duration, let duration, declared != duration {
                notes.append(Finding(.sgaiSignaling, "\(name): asset \(index + 1) lasts \(duration.seconds) s, its slot says \(declared.seconds) s"))
            }
            ads.append(ad(interstitial, asset: asset, index: index, duration: duration, slot: slot, name: name, notes: &notes))
            start += duration ?? .zero
        }
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<VAST version=\"4.1\">\n" + ads.joined() + "</VAST>\n"
        // The date range's pod tracking is the break's already; an asset list's own is added to it.
        return Written(data: Data(text.utf8), notes: notes, tracking: list.signaling == nil ? [] : breakTracking(list.signaling))
    }

    private static func ad(_ interstitial: HLSInterstitial, asset: InterstitialAssets.Asset, index: Int, duration: Duration?,
                           slot: AdCreativeSignaling.Slot?, name: String, notes: inout [Finding]) -> String {
        var impressions: [String] = [], errors: [String] = [], clicks: [String] = [], tracking: [String] = []
        for entry in slot?.tracking ?? [] {
            let urls = entry.urls.map(escape)
            switch entry.type {
            case "impression": impressions += urls
            case "error": errors += urls
            case "clickTracking": clicks += urls
            case "progress":
                guard let offset = entry.offset else {
                    notes.append(Finding(.sgaiTracking, "\(name): asset \(index + 1)'s progress entry has no offset: not fired"))
                    continue
                }
                tracking += urls.map { "<Tracking event=\"progress\" offset=\"\(offset.clockText)\">\($0)</Tracking>" }
            case let type where linearEvents.contains(type):
                if let offset = entry.offset, let duration, let expected = TrackedStreamRules.due(type, start: .zero, duration: duration) {
                    if abs((offset - expected).wholeMilliseconds) > 50 {
                        notes.append(Finding(.sgaiTracking, "\(name): asset \(index + 1)'s \(type) says offset \(offset.seconds) s; VAST's \(type) of a \(duration.seconds) s ad is at \(expected.seconds) s, where it fires"))
                    }
                }
                tracking += urls.map { "<Tracking event=\"\(type)\">\($0)</Tracking>" }
            default:
                notes.append(Finding(.sgaiTracking, "\(name): asset \(index + 1)'s tracking type \"\(entry.type.prefix(40))\" is not a VAST event: not fired"))
            }
        }
        let skippable = slot?.skipOffset != nil && !interstitial.restrict.contains("SKIP")
        let skip = skippable ? " skipoffset=\"\(slot!.skipOffset!.clockText)\"" : ""
        var clicksXML = ""
        if slot?.clickThrough != nil || !clicks.isEmpty {
            clicksXML = "<VideoClicks>" + (slot?.clickThrough.map { "<ClickThrough>\(escape($0))</ClickThrough>" } ?? "")
                + clicks.map { "<ClickTracking>\($0)</ClickTracking>" }.joined() + "</VideoClicks>"
        }
        let id = escape("\(interstitial.id)-\(index + 1)")
        // The slot's identifiers are the creative's UniversalAdIds ("unknown" without one, as VAST 4.1 says).
        let identifiers = slot?.identifiers ?? []
        let universal = (identifiers.isEmpty ? [AdCreativeSignaling.Identifier(scheme: "unknown", value: "unknown")] : identifiers)
            .map { "<UniversalAdId idRegistry=\"\(escape($0.scheme))\">\(escape($0.value))</UniversalAdId>" }.joined()
        return "<Ad id=\"\(id)\" sequence=\"\(index + 1)\"><InLine><AdSystem>HLS interstitial</AdSystem><AdTitle>\(id)</AdTitle>"
            + "<AdServingId>\(id)</AdServingId>"
            + impressions.map { "<Impression>\($0)</Impression>" }.joined() + errors.map { "<Error>\($0)</Error>" }.joined()
            + "<Creatives><Creative id=\"\(id)\">\(universal)<Linear\(skip)><Duration>\((duration ?? .zero).clockText)</Duration>"
            + "<TrackingEvents>" + tracking.joined() + "</TrackingEvents>" + clicksXML
            + "<MediaFiles><MediaFile delivery=\"streaming\" type=\"application/x-mpegURL\" width=\"640\" height=\"360\">\(escape(asset.uri))</MediaFile></MediaFiles>"
            + "</Linear></Creative></Creatives></InLine></Ad>\n"
    }

    static func escape(_ text: String) -> String { XMLNode.escape(text, quote: true) }
}
