import Primitives
import PlayerEngine
import TrackingBeacons

/// The outcome of checking one expectation.
public struct ExpectationResult: Sendable, Equatable {
    /// What was expected, in words (`midpoint at playhead 5.000 s, clock 15.000 s`).
    public var name: String
    /// Whether the run met it.
    public var passed: Bool
    /// What was seen instead, when it failed.
    public var detail: String?
    /// The check without its expected values (`event midpoint time`, `beacon midpoint count`), so a test report's
    /// history survives a golden file whose times or counts changed; nil when `name` has no values in it.
    public var check: String?

    /// A result as given; `check` is nil when `name` has no values in it.
    public init(name: String, passed: Bool, detail: String?, check: String? = nil) {
        self.name = name
        self.passed = passed
        self.detail = detail
        self.check = check
    }

    /// The stable name: `check`, or `name` when it has none.
    public var stableName: String { check ?? name }
}

extension SessionExpectations {
    /// Checks every expectation against what a run reported.
    public func check(_ transcript: SessionTranscript, summary: SessionSummary) -> [ExpectationResult] {
        eventResults(transcript) + beaconResults(transcript) + outcomeResults(summary) + (strict == true ? strictResults(transcript) : [])
    }

    /// Each expected event: how often it happened, and (with a playhead or clock) when its n-th occurrence did.
    private func eventResults(_ transcript: SessionTranscript) -> [ExpectationResult] {
        var results: [ExpectationResult] = []
        let slack = tolerance ?? 0.001
        for expected in events ?? [] {
            let seen = transcript.events.filter {
                $0.name.rawValue == expected.name && (expected.detail == nil || $0.detailText == expected.detail) && (expected.ad == nil || $0.ad?.index == expected.ad)
                    && (expected.adBreak == nil || $0.adBreak == expected.adBreak)
            }
            let label = (expected.detail.map { "\(expected.name) (\($0))" } ?? expected.name) + (expected.ad.map { " in ad \($0)" } ?? "")
                + (expected.adBreak.map { " in break \($0)" } ?? "")
            if let count = expected.count {
                results.append(.init(name: "\(label) happens \(Self.times(count))", passed: seen.count == count,
                                     detail: seen.count == count ? nil : "happened \(Self.times(seen.count))", check: "event \(label) count"))
            }
            guard expected.playhead != nil || expected.clock != nil else {
                if expected.count == nil {
                    results.append(.init(name: "\(label) happens", passed: !seen.isEmpty, detail: seen.isEmpty ? "never happened" : nil, check: "event \(label) happens"))
                }
                continue
            }
            let occurrence = max(1, expected.occurrence ?? 1)
            let check = "event \(label)\(occurrence > 1 ? " #\(occurrence)" : "") time"
            var name = "\(label)\(occurrence > 1 ? " #\(occurrence)" : "") at"
            if let playhead = expected.playhead { name += " playhead \(Self.seconds(playhead))" }
            if let clock = expected.clock { name += "\(expected.playhead == nil ? "" : ",") clock \(Self.seconds(clock))" }
            let within = expected.tolerance ?? slack
            name += " ±\(Self.seconds(within))"
            guard seen.count >= occurrence else {
                results.append(.init(name: name, passed: false, detail: "happened \(Self.times(seen.count))", check: check))
                continue
            }
            let event = seen[occurrence - 1]
            var misses: [String] = []
            if let playhead = expected.playhead, abs(event.playhead.seconds - playhead) > within + 1e-9 {
                misses.append("playhead \(Self.seconds(event.playhead.seconds)) (off by \(Self.signed(event.playhead.seconds - playhead)))")
            }
            if let clock = expected.clock, abs(event.clock.seconds - clock) > within + 1e-9 {
                misses.append("clock \(Self.seconds(event.clock.seconds)) (off by \(Self.signed(event.clock.seconds - clock)))")
            }
            results.append(.init(name: name, passed: misses.isEmpty, detail: misses.isEmpty ? nil : "was at " + misses.joined(separator: ", "), check: check))
        }
        return results
    }

    /// Each expected beacon: how many fired, and whether they were delivered.
    private func beaconResults(_ transcript: SessionTranscript) -> [ExpectationResult] {
        var results: [ExpectationResult] = []
        for expected in beacons ?? [] {
            let matching = transcript.firedBeacons.filter { expected.matches($0) }
            let count = expected.count ?? 1
            var what = [expected.event.map { "\($0) beacon" } ?? "beacon"]
            if let url = expected.url { what.append("matching \(url)") }
            if let template = expected.template { what.append("with template \(template)") }
            if let source = expected.source { what.append("from \(source)") }
            if let ad = expected.ad { what.append("in ad \(ad)") }
            if let adBreak = expected.adBreak { what.append("in break \(adBreak)") }
            let name = what.joined(separator: " ") + " fires \(Self.times(count))"
            let beacon = ([expected.event.map { "beacon \($0)" } ?? "beacon"] + what.dropFirst()).joined(separator: " ")
            results.append(.init(name: name, passed: matching.count == count, detail: matching.count == count ? nil : "fired \(Self.times(matching.count))",
                                 check: "\(beacon) count"))
            if expected.delivered == true {
                let failed = matching.filter { !$0.delivered }
                results.append(.init(name: what.joined(separator: " ") + " delivered", passed: failed.isEmpty,
                                     detail: failed.isEmpty ? nil : failed.map { "\($0.url): \($0.error ?? "not delivered")" }.joined(separator: "; "),
                                     check: "\(beacon) delivered"))
            }
        }
        return results
    }

    /// The reward, the error code and the ending expected.
    private func outcomeResults(_ summary: SessionSummary) -> [ExpectationResult] {
        var results: [ExpectationResult] = []
        if let reward {
            let granted = summary.playback?.rewardGranted ?? false
            results.append(.init(name: reward ? "reward granted" : "no reward", passed: granted == reward,
                                 detail: granted == reward ? nil : (granted ? "the reward was granted" : "no reward was granted"), check: "reward"))
        }
        if let errorCode {
            let actual = summary.error?.code.rawValue ?? 0
            results.append(.init(name: errorCode == 0 ? "no error" : "error \(errorCode)", passed: actual == errorCode,
                                 detail: actual == errorCode ? nil : (actual == 0 ? "no error" : "error \(actual): \(summary.error?.message ?? "")"),
                                 check: "error code"))
        }
        if let ending {
            let actual = summary.playback?.ending?.rawValue ?? "none"
            results.append(.init(name: "ending \(ending)", passed: actual == ending, detail: actual == ending ? nil : "ended \(actual)", check: "ending"))
        }
        return results
    }

    /// `strict`: no event and no beacon the expectations do not list.
    private func strictResults(_ transcript: SessionTranscript) -> [ExpectationResult] {
        var results: [ExpectationResult] = []
        let listed = Set((events ?? []).map(\.name))
        var unlisted: [String: Int] = [:]
        for event in transcript.events where !listed.contains(event.name.rawValue) { unlisted[event.name.rawValue, default: 0] += 1 }
        results.append(.init(name: "no other events", passed: unlisted.isEmpty,
                             detail: unlisted.isEmpty ? nil : "also happened: " + unlisted.sorted { $0.key < $1.key }.map { "\($0.key) \(Self.times($0.value))" }.joined(separator: ", ")))
        let unmatched = transcript.firedBeacons.filter { beacon in !(beacons ?? []).contains { $0.matches(beacon) } }
        let shown = unmatched.prefix(5).map { "\($0.event) \($0.url)" }.joined(separator: "; ")
        results.append(.init(name: "no other beacons", passed: unmatched.isEmpty,
                             detail: unmatched.isEmpty ? nil : "also fired \(Self.times(unmatched.count)): \(shown)\(unmatched.count > 5 ? "; …" : "")"))
        return results
    }

    static func times(_ count: Int) -> String { count == 0 ? "never" : count == 1 ? "once" : "\(count) times" }
    /// Seconds with three decimals (`5.000 s`); a value too large for milliseconds (`playhead: 1e300`) as written.
    static func seconds(_ value: Double) -> String { millisecondText(seconds: value) + " s" }
    static func signed(_ value: Double) -> String { (value >= 0 ? "+" : "") + seconds(value) }
}

extension SessionExpectations.Beacon {
    /// Whether a fired beacon is one this expectation speaks of (every given field matches).
    func matches(_ beacon: BeaconRecord) -> Bool {
        (event.map { $0 == beacon.event } ?? true)
            && (url.map { Glob($0).matches(beacon.url) } ?? true)
            && (template.map { $0 == beacon.template } ?? true)
            && (source.map { $0 == beacon.source } ?? true)
            && (ad.map { $0 == beacon.planned.ad } ?? true)
            && (adBreak.map { $0 == beacon.planned.adBreak } ?? true)
    }
}

import Foundation
