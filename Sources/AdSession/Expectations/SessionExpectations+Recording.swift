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
            let key = name + "\u{1F}" + (event.detailText ?? "")
            occurrences[key, default: 0] += 1
            let occurrence = occurrences[key]!
            events.append(Event(name: name, occurrence: occurrence > 1 ? occurrence : nil,
                                playhead: Self.rounded(event.playhead.seconds), clock: Self.rounded(event.clock.seconds),
                                detail: event.detailText))
        }
        for (name, count) in counts.sorted(by: { $0.key < $1.key }) {
            events.append(Event(name: name, count: count))
        }
        var beacons: [Beacon] = []
        var seen: [String: Int] = [:]
        var order: [(String, String, String)] = []
        for beacon in transcript.firedBeacons {
            let key = beacon.event + "\u{1F}" + beacon.template + "\u{1F}" + beacon.source
            if seen[key] == nil { order.append((beacon.event, beacon.template, beacon.source)) }
            seen[key, default: 0] += 1
        }
        for (event, template, source) in order {
            beacons.append(Beacon(event: event, template: template, source: source, count: seen[event + "\u{1F}" + template + "\u{1F}" + source]))
        }
        self.init(tolerance: 0.001, events: events, beacons: beacons, reward: summary.playback?.rewardGranted ?? false,
                  errorCode: summary.error?.code.rawValue ?? 0, ending: summary.playback?.ending?.rawValue, strict: true)
    }

    static func rounded(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
}
