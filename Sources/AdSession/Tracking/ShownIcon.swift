import PlayerEngine
import VAST

/// An icon a session shows (VAST 3.0+ `<Icon>`, e.g. AdChoices), and the tracking-only icons that fire with it.
///
/// Icons of the chain are grouped by `program`: of one program, the icon closest to the InLine that has a resource is
/// shown (VAST: "on conflict, prefer the creative closest to the InLine"); the others of that program without a
/// resource are the wrappers' tracking for it, so their IconViewTracking and IconClickTracking fire with it; others
/// with a resource of their own are not shown. Icons without a program are each their own.
struct ShownIcon: Sendable {
    var icon: Sourced<Icon>
    var trackingOnly: [Sourced<Icon>]

    /// The rule the engine plays: shown from `offset` (0 when absent: with the first frame) for `duration` (the rest
    /// of the video when absent).
    var rule: PlaybackRules.IconRule {
        let through = icon.value.clickThrough?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return PlaybackRules.IconRule(offset: icon.value.offset ?? .zero, duration: icon.value.duration,
                                      hasClickThrough: !through.isEmpty)
    }

    /// The icons to show, in the merge order of the chosen ones.
    static func choose(_ icons: [Sourced<Icon>]) -> [ShownIcon] {
        func program(_ icon: Icon) -> String? {
            icon.program.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() }.flatMap { $0.isEmpty ? nil : $0 }
        }
        var shown: [(position: Int, icon: ShownIcon)] = []
        var grouped: [String: [(Int, Sourced<Icon>)]] = [:]
        var order: [String] = []
        for (position, icon) in icons.enumerated() {
            guard let key = program(icon.value) else {
                shown.append((position, ShownIcon(icon: icon, trackingOnly: [])))
                continue
            }
            if grouped[key] == nil { order.append(key) }
            grouped[key, default: []].append((position, icon))
        }
        for key in order {
            let group = grouped[key]!
            let withResource = group.filter { !$0.1.value.resources.isEmpty }
            // The closest to the InLine: the deepest source; the last in document order within it.
            let pool = withResource.isEmpty ? group : withResource
            let chosen = pool.max { ($0.1.source.chainDepth, $0.0) < ($1.1.source.chainDepth, $1.0) }!
            let tracking = group.filter { $0.0 != chosen.0 && $0.1.value.resources.isEmpty }.map(\.1)
            shown.append((chosen.0, ShownIcon(icon: chosen.1, trackingOnly: tracking)))
        }
        return shown.sorted { $0.position < $1.position }.map(\.icon)
    }
}
