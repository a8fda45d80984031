import Primitives
import AdSession
import Foundation
import PlayerEngine
import VAST

/// Text and JSON for `vplay inspect`.
enum InspectRendering {
    static func outcome(_ outcome: ResolutionHop.Outcome) -> (status: String, code: Int?) {
        switch outcome {
        case let .vast(count): ("VAST, \(count) ad(s)", nil)
        case .noAd: ("no ad", nil)
        case let .failed(error): ("failed: \(error.message)", error.code.rawValue)
        case let .refused(error): ("refused: \(error.message)", error.code.rawValue)
        }
    }

    static func json(_ inspection: AdInspection) -> JSON {
        let hops = inspection.hops.map { hop -> JSON in
            let (status, code) = outcome(hop.outcome)
            return .object([
                ("depth", .int(hop.depth)), ("url", .string(hop.url)), ("status", .string(status)), ("code", .optional(code)),
                ("time", .seconds(hop.elapsed)), ("adSystems", .array(hop.adSystems.map(JSON.string))),
            ])
        }
        var pairs: [(String, JSON)] = [("tag", .string(inspection.tag)), ("chain", .array(hops))]
        if let ad = inspection.ad {
            pairs.append(("ad", .object([
                ("id", .optional(ad.ad.id)), ("adSystem", .optional(ad.inLine.adSystem?.name)), ("adTitle", .optional(ad.inLine.adTitle)),
                ("adServingId", .optional(ad.inLine.adServingId)), ("wrappers", .int(ad.wrappers.count)),
                ("vastDuration", ad.linear?.duration.map(JSON.seconds) ?? .null),
                ("skipOffsetAsWritten", .optional(ad.linear?.skipOffset?.description)),
                // What a run grants: nothing when the extension turns the reward off (`RewardedVideoOn` not 1).
                ("rewarded", ad.rewarded.flatMap { $0.isEnabled ? $0 : nil }.map { .object([("currency", .optional($0.currencyName)), ("amount", .optional($0.amount))]) } ?? .null),
            ])))
        }
        if !inspection.pod.isEmpty {
            pairs.append(("pod", .array(inspection.pod.map { place in
                .object([
                    ("ad", SessionJSON.breakAd(place.ad)), ("substitute", .bool(place.substitute)), ("plays", .bool(place.error == nil)),
                    ("cut", .bool(place.cut)), ("code", .optional(place.error?.code.rawValue)), ("message", .optional(place.error?.message)),
                    ("media", .optional(place.mediaURL)), ("duration", place.duration.map(JSON.seconds) ?? .null),
                ])
            })))
        }
        if let selection = inspection.selection {
            pairs.append(("media", .object([
                ("url", .string(selection.file.url)), ("index", .int(selection.index)), ("id", .optional(selection.file.id)),
                ("type", .optional(selection.file.type)), ("bitrate", .optional(selection.file.effectiveBitrate)),
                ("width", .optional(selection.file.width)), ("height", .optional(selection.file.height)),
                ("reason", .string(selection.reason)),
                ("duration", inspection.media.map { .number($0.duration) } ?? .null),
                ("rejected", .array(selection.rejected.map { .object([("index", .int($0.index)), ("url", .string($0.file.url)), ("reason", .string($0.reason))]) })),
            ])))
        }
        if let delivery = inspection.delivery {
            pairs.append(("network", .object([
                ("profile", .string(delivery.profile.name)), ("startupDelay", delivery.startupDelay.map(JSON.seconds) ?? .null),
                ("startupBuffer", .seconds(delivery.startupBuffer)), ("bytesForStartup", .int(Int(delivery.map.bytesNeeded(through: delivery.startupBuffer)))),
                ("size", .int(Int(delivery.map.size))), ("headerAtEnd", .bool(delivery.map.headerAtEnd)),
            ])))
        }
        pairs.append(("endCard", inspection.endCard.map { card in
            .object(companion(card.companion) + [
                ("reason", .string(card.reason)),
                ("matching", .array(card.matching.map { .object(companion($0)) })),
            ])
        } ?? .null))
        pairs.append(("icons", .array(inspection.icons.map { shown in
            let icon = shown.icon.value
            return .object([
                ("program", .optional(icon.program)), ("source", .string(shown.icon.source.description)),
                ("width", .optional(icon.width)), ("height", .optional(icon.height)),
                ("offset", .seconds(icon.offset ?? .zero)), ("duration", icon.duration.map(JSON.seconds) ?? .null),
                ("clickThrough", .optional(icon.clickThrough)),
                ("trackedWith", .array(shown.trackedWith.map { .string($0.description) })),
            ])
        })))
        pairs.append(("tracking", .array(inspection.tracking.map { row in
            var fields: [(String, JSON)] = [("event", .string(row.event)), ("url", .string(row.url)), ("source", .string(row.source))]
            if let offset = row.offset { fields.append(("offsetAsWritten", .string(offset))) }
            if !row.unknownMacros.isEmpty { fields.append(("unknownMacros", .array(row.unknownMacros.map(JSON.string)))) }
            return .object(fields)
        })))
        pairs.append(("warnings", .array(inspection.warnings.map { JSON.string($0.description) })))
        pairs.append(("errors", .array(inspection.errors.map { .object([("code", .int($0.code.rawValue)), ("type", .string($0.kind.rawValue)), ("message", .string($0.message))]) })))
        return .object(pairs)
    }

    /// A companion's identity: id, where it came from, its size and rendering mode.
    static func companion(_ companion: Sourced<Companion>) -> [(String, JSON)] {
        [("id", .optional(companion.value.id)), ("source", .string(companion.source.description)),
         ("width", .optional(companion.value.width)), ("height", .optional(companion.value.height)),
         ("renderingMode", .optional(companion.value.renderingMode)), ("clickThrough", .optional(companion.value.clickThrough))]
    }

    static func companionText(_ companion: Sourced<Companion>) -> String {
        let size = companion.value.width.map { w in "\(w)x\(companion.value.height.map(String.init) ?? "?")" } ?? "no size"
        return "\(companion.value.id.map { "companion \($0)" } ?? "companion") [\(companion.source)] \(size)"
    }

    static func text(_ inspection: AdInspection) -> String {
        var lines = ["tag \(inspection.tag)", "", "chain:"]
        for hop in inspection.hops {
            let (status, code) = outcome(hop.outcome)
            let systems = hop.adSystems.isEmpty ? "" : " [\(hop.adSystems.joined(separator: ", "))]"
            lines.append(String(format: "  %d. %@ — %@%@ (%.0f ms)%@", hop.depth, hop.url, code.map { "\($0) " } ?? "", status, hop.elapsed.reportedSeconds * 1000, systems))
        }
        if !inspection.pod.isEmpty {
            lines += ["", "pod: \(Set(inspection.pod.map(\.ad.index)).count) places, in play order (the ad below is the first that plays):"]
            for place in inspection.pod {
                var who = ["id \(place.ad.id ?? "?")", place.ad.sequence.map { "sequence \($0)" } ?? "stand-alone"]
                if place.substitute { who.append("substitute") }
                var line = "  ad \(place.ad.index) (\(who.joined(separator: ", "))): "
                if let error = place.error {
                    line += "\(error.code.rawValue) \(place.cut ? "cut" : "fails"): \(error.message)"
                } else {
                    line += "plays" + (place.duration.map { " \($0.millisecondText) s" } ?? "") + (place.mediaURL.map { " of \($0)" } ?? "")
                }
                lines.append(line)
            }
        }
        if let ad = inspection.ad {
            lines += ["", "ad \(ad.ad.id ?? "?") from \(ad.inLine.adSystem?.name ?? "?"): \(ad.inLine.adTitle ?? "")"]
            if let duration = ad.linear?.duration { lines.append("  VAST duration \(duration.clockText)") }
            if let skip = ad.linear?.skipOffset { lines.append("  skippable at \(skip)") }
            if let reward = ad.rewarded, reward.isEnabled { lines.append("  rewarded: \(reward.amountText ?? "?") \(reward.currencyName ?? "")") }
        }
        if let selection = inspection.selection {
            lines += ["", "media: #\(selection.index) \(selection.file.url)", "  why: \(selection.reason)"]
            if let media = inspection.media {
                lines.append(String(format: "  opened: %@, %.3f s%@", media.format, media.duration, media.video.map { ", \($0.codec) \($0.width ?? 0)x\($0.height ?? 0)" } ?? ""))
            }
            for rejected in selection.rejected { lines.append("  not #\(rejected.index) \(rejected.file.url): \(rejected.reason)") }
            if let delivery = inspection.delivery {
                let needed = delivery.map.bytesNeeded(through: delivery.startupBuffer)
                lines.append("  network \(delivery.profile.name): first frame \(delivery.startupDelay.map { $0.millisecondText + " s" } ?? "never") after the request "
                             + "(\(delivery.startupBuffer.millisecondText) s of media needs \(needed) of its \(delivery.map.size) bytes)")
            }
        }
        if let card = inspection.endCard {
            lines += ["", "end card: \(companionText(card.companion))", "  why: \(card.reason)"]
            lines += card.matching.map { "  with: \(companionText($0)) (same slot: its tracking fires too)" }
        }
        for (index, shown) in inspection.icons.enumerated() {
            let icon = shown.icon.value
            let size = icon.width.map { w in " \(w)x\(icon.height.map(String.init) ?? "?")" } ?? ""
            let span = "at \((icon.offset ?? .zero).clockText)" + (icon.duration.map { " for \($0.clockText)" } ?? " to the end")
            if index == 0 { lines.append("") }
            lines.append("icon \(index + 1): \(icon.program ?? "(no program)") [\(shown.icon.source)]\(size) \(span)"
                         + (shown.trackedWith.isEmpty ? "" : "; with the tracking of \(shown.trackedWith.map(\.description).joined(separator: ", "))"))
        }
        if !inspection.tracking.isEmpty {
            lines += ["", "tracking:"]
            for row in inspection.tracking {
                let offset = row.offset.map { "@\($0)" } ?? ""
                let unknown = row.unknownMacros.isEmpty ? "" : "  (unknown macros: \(row.unknownMacros.joined(separator: ", ")))"
                lines.append("  \(row.event)\(offset) [\(row.source)] \(row.url)\(unknown)")
            }
        }
        if !inspection.warnings.isEmpty { lines += [""] + inspection.warnings.map { "warning: \($0)" } }
        if !inspection.errors.isEmpty { lines += [""] + inspection.errors.map { "error \($0.code): \($0.message)" } }
        return lines.joined(separator: "\n")
    }
}
