import Primitives
import PlayerEngine

extension SessionExpectations {
    /// A golden file from a run: every event at its times with its detail (occurrences numbered), each beacon by
    /// event and template with its count, the reward, the error code and the ending, and `strict`: nothing else.
    /// Checked against later runs with `--expect`.
    public init(recording transcript: SessionTranscript, summary: SessionSummary) {
        var occurrences: [String: Int] = [:]
        var events: [Event] = []
        var counts: [String: Int] = [:]
        for event in transcript.events {
            let name = event.name.rawValue
            counts[name, default: 0] += 1
            // Occurrences are numbered among the events of the same name and detail, as `check` finds them.
            let key = name + "\u{1F}" + (event.detailText ?? "") + "\u{1F}" + (event.ad.map { String($0.index) } ?? "") + "\u{1F}" + (event.adBreak.map(String.init) ?? "")
            occurrences[key, default: 0] += 1
            let occurrence = occurrences[key]!
            events.append(Event(name: name, occurrence: occurrence > 1 ? occurrence : nil,
                                playhead: Self.rounded(event.playhead.seconds), clock: Self.rounded(event.clock.seconds),
                                detail: event.detailText, ad: event.ad?.index, adBreak: event.adBreak))
        }
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) {
            events.append(Event(name: name, count: count))
        }
        var beacons: [Beacon] = []
        var seen: [String: Int] = [:]
        var order: [(event: String, template: String, source: String, ad: Int?, adBreak: Int?, key: String)] = []
        for beacon in transcript.firedBeacons {
            // In a pod the same URL fires once for each ad (a wrapper's): counted per ad.
            // In a VMAP session, per break.
            let key = beacon.event + "\u{1F}" + beacon.template + "\u{1F}" + beacon.source + "\u{1F}" + (beacon.planned.ad.map(String.init) ?? "")
                + "\u{1F}" + (beacon.planned.adBreak.map(String.init) ?? "")
            if seen[key] == nil { order.append((beacon.event, beacon.template, beacon.source, beacon.planned.ad, beacon.planned.adBreak, key)) }
            seen[key, default: 0] += 1
        }
        for item in order {
            beacons.append(Beacon(event: item.event, template: item.template, source: item.source, count: seen[item.key], ad: item.ad, adBreak: item.adBreak))
        }
        self.init(tolerance: 0.001, events: events, beacons: beacons, reward: summary.playback?.rewardGranted ?? false,
                  errorCode: summary.error?.code.rawValue ?? 0, ending: summary.playback?.ending?.rawValue, strict: true)
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
