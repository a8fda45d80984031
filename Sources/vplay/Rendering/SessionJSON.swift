import Primitives
import AdSession
import PlayerEngine
import TrackingBeacons

/// The JSON Lines contract of `vplay --vast … --json` (docs/reference/json.md). Keys and meanings are stable;
/// fields may be added.
enum SessionJSON {
    /// Where the ad's pictures are in the file's own timestamps (what quartiles are measured on), how that was
    /// measured, and the duration the header declares.
    /// `passTime`: with the demux pass's wall time (`vplay probe`; a session's lines stay reproducible to the byte).
    static func timeline(_ media: MediaInfo, passTime: Bool = false) -> JSON {
        var pairs: [(String, JSON)] = [
            ("startTime", .seconds(media.timeline.start)), ("endTime", .seconds(media.timeline.end)),
            ("measuredBy", .string(media.timeline.measuredBy.rawValue)),
            ("declaredDuration", media.declaredDuration.map(JSON.seconds) ?? .null),
        ]
        if passTime { pairs.append(("passTime", media.timeline.passTime.map(JSON.seconds) ?? .null)) }
        return .object(pairs)
    }

    /// One record of the session `session` (docs/reference/json.md): `kind`, then `session`, then the record's own
    /// keys; a beacon is `kind` and the beacon record's one shape (`beaconRecord`).
    static func line(_ record: SessionRecord, session: String) -> JSON {
        let body = body(record, session: session)
        if case .beacon = record { return body }
        guard case let .object(pairs) = body, let kind = pairs.first else { return body }
        return .object([kind, ("session", .string(session))] + pairs.dropFirst())
    }

    /// The beacon record's keys and values, as the beacon log writes them (`BeaconRecord.fields`).
    static func beaconRecord(_ beacon: BeaconRecord, session: String) -> [(String, JSON)] {
        beacon.fields(session: session).map { key, value in
            switch value {
            case .null: (key, .null)
            case let .bool(value): (key, .bool(value))
            case let .int(value): (key, .int(value))
            case let .seconds(value): (key, .number(value))
            case let .string(value): (key, .string(value))
            case let .strings(values): (key, .array(values.map(JSON.string)))
            }
        }
    }

    /// A record's keys, `kind` first; a beacon's with its `session` (the record shape puts it among its own).
    private static func body(_ record: SessionRecord, session: String) -> JSON {
        switch record {
        case let .resolved(info):
            var media: [(String, JSON)] = [
                ("url", .string(info.mediaURL)), ("reason", .string(info.mediaReason)),
                ("duration", .number(info.media.duration)), ("timeline", timeline(info.media)), ("format", .string(info.media.format)),
            ]
            if let video = info.media.video {
                media += [("codec", .string(video.codec)), ("width", .optional(video.width)), ("height", .optional(video.height)), ("fps", .optional(video.fps))]
            }
            return .object([
                ("kind", .string("resolved")), ("ad", .optional(info.adID)), ("adSystem", .optional(info.adSystem)),
                ("adTitle", .optional(info.adTitle)), ("wrappers", .int(info.wrapperCount)),
                ("vastDuration", info.vastDuration.map(JSON.seconds) ?? .null), ("media", .object(media)),
            ])
        case let .event(event):
            var pairs: [(String, JSON)] = [
                ("kind", .string("event")), ("name", .string(event.name.rawValue)),
                ("playhead", .seconds(event.playhead)), ("clock", .seconds(event.clock)),
            ]
            if let offset = event.offset { pairs.append(("offset", .seconds(offset))) }
            if let detail = event.detailText { pairs.append(("detail", .string(detail))) }
            if event.play > 1 { pairs.append(("play", .int(event.play))) }
            if let reward = event.reward { pairs.append(("reward", .object([("currency", .string(reward.currency)), ("amount", .number(reward.amount))]))) }
            if let icon = event.icon { pairs.append(("icon", .int(icon + 1))) }
            if let url = event.clickThroughURL { pairs.append(("clickThrough", .string(url))) }
            if let ad = event.ad { pairs.append(("ad", breakAd(ad))) }
            if let adBreak = event.adBreak { pairs.append(("break", .int(adBreak))) }
            return .object(pairs)
        case let .beacon(beacon):
            return .object([("kind", .string("beacon"))] + beaconRecord(beacon, session: session))
        case let .warning(message):
            return .object([("kind", .string("warning")), ("message", .string(message))])
        case let .reconciliation(result):
            return .object([
                ("kind", .string("reconciliation")), ("sent", .int(result.sent)), ("received", .int(result.received)),
                ("matched", .int(result.matched)),
                ("missing", .array(result.missing.map { .object([("event", .string($0.event)), ("source", .string($0.source)), ("url", .string($0.url)), ("error", .optional($0.error))]) })),
                ("unexpected", .array(result.unexpected.map(JSON.string))),
                ("notSent", .array(result.notSent.map { .object([("event", .string($0.event)), ("source", .string($0.source)), ("url", .string($0.url))]) })),
            ] + (result.device.map { check in
                [("device", .object([
                    ("ip", .optional(check.expected.ip)), ("userAgent", .optional(check.expected.userAgent)), ("forwardedFor", .optional(check.expected.forwardedFor)),
                    ("checked", .int(check.checked)), ("wrong", .array(check.wrong.map(JSON.string))),
                ]))]
            } ?? []))
        case let .ad(report):
            return .object([("kind", .string("ad"))] + podAd(report))
        case let .adBreak(report):
            return .object([("kind", .string("break"))] + VMAPRendering.breakPairs(report))
        case let .error(error):
            var pairs: [(String, JSON)] = [
                ("kind", .string("error")), ("code", .int(error.code.rawValue)), ("message", .string(error.message)), ("type", .string(error.kind.rawValue)),
            ]
            if let playhead = error.playhead { pairs.append(("playhead", .seconds(playhead))) }
            if let clock = error.clock { pairs.append(("clock", .seconds(clock))) }
            return .object(pairs)
        }
    }

    /// Which ad of a pod: `{"index": 2, "id": "…", "sequence": 2}`.
    static func breakAd(_ ad: BreakAd) -> JSON {
        .object([("index", .int(ad.index)), ("id", .optional(ad.id)), ("sequence", .optional(ad.sequence))])
    }

    /// One pod ad's turn: the `ad` record and each row of the summary's `ads`.
    static func podAd(_ report: PodAdReport) -> [(String, JSON)] {
        [
            ("ad", breakAd(report.ad)), ("substitute", .bool(report.substitute)), ("outcome", .string(report.outcome.rawValue)),
            ("code", .optional(report.error?.code.rawValue)), ("message", .optional(report.error?.message)),
            ("startClock", report.start.map(JSON.seconds) ?? .null), ("endClock", report.end.map(JSON.seconds) ?? .null),
            ("played", .seconds(report.played)), ("duration", report.duration.map(JSON.seconds) ?? .null),
            ("beacons", .int(report.beacons)),
        ]
    }

    static func expectations(_ results: [ExpectationResult], session: String) -> JSON {
        .object([
            ("kind", .string("expectations")), ("session", .string(session)), ("passed", .int(results.filter(\.passed).count)), ("failed", .int(results.filter { !$0.passed }.count)),
            ("results", .array(results.map { .object([("expectation", .string($0.name)), ("passed", .bool($0.passed)), ("detail", .optional($0.detail))]) })),
        ])
    }

    static func summary(_ summary: SessionSummary, exitCode: Int32, expectations: [ExpectationResult]? = nil, session: String) -> JSON {
        var pairs: [(String, JSON)] = [
            ("kind", .string("summary")), ("session", .string(session)), ("outcome", .string(summary.outcome.rawValue)), ("exitCode", .int(Int(exitCode))),
            ("ad", .optional(summary.adID)), ("media", .optional(summary.mediaURL)),
            ("duration", summary.duration.map(JSON.seconds) ?? .null), ("clock", .seconds(summary.clock)),
            ("events", .int(summary.events)),
            ("beacons", .object([
                ("planned", .int(summary.beaconsPlanned)), ("delivered", .int(summary.beaconsDelivered)),
                ("failed", .int(summary.beaconsFailed)), ("dryRun", .bool(summary.dryRun)),
            ] + (summary.beaconsLost > 0 ? [("lost", .int(summary.beaconsLost))] : []))),
        ]
        if let playback = summary.playback {
            pairs.append(("frames", .object([
                ("presented", .int(playback.framesPresented)), ("pictures", .int(playback.videoFramesPresented)),
                ("late", .int(playback.framesLate)), ("decoded", .int(playback.statistics.frames)),
                ("decodeErrors", .int(playback.statistics.decodeErrors)), ("notShown", .int(playback.framesNotShown)),
                ("stalls", .int(playback.stalls)), ("stallTime", .seconds(playback.stallTime)),
                ("maxLateness", .seconds(playback.maxFrameLateness)),
            ])))
            if let network = summary.network {
                pairs.append(("network", .object([
                    ("profile", .string(network.profile.name)), ("startupBuffer", .seconds(network.startupBuffer)),
                    ("rebuffer", .seconds(network.rebuffer)), ("mediaTimeout", .seconds(network.mediaTimeout)),
                    ("stallTimeout", network.stallTimeout.map(JSON.seconds) ?? .null),
                    ("startupDelay", playback.startupDelay.map(JSON.seconds) ?? .null),
                    ("rebuffers", .int(playback.rebuffers)), ("rebufferTime", .seconds(playback.rebufferTime)),
                ])))
            }
            pairs.append(("maxBoundaryLateness", .seconds(playback.maxBoundaryLateness)))
            let lateness = playback.boundaryLateness.sorted()
            if !lateness.isEmpty {
                func percentile(_ p: Double) -> JSON { .seconds(lateness[min(lateness.count - 1, Int((Double(lateness.count) * p).rounded(.up)) - 1)]) }
                pairs.append(("lateness", .object([
                    ("boundaries", .int(lateness.count)), ("p50", percentile(0.5)),
                    ("p99", percentile(0.99)), ("max", .seconds(lateness.last!)),
                ])))
            }
            pairs.append(("ending", .optional(playback.ending?.rawValue)))
            pairs.append(("rewarded", .bool(playback.rewardGranted)))
            if playback.plays > 1 { pairs.append(("plays", .int(playback.plays))) }
        }
        if let error = summary.error { pairs.append(("error", .object([("code", .int(error.code.rawValue)), ("message", .string(error.message))]))) }
        if let result = summary.reconciliation {
            pairs.append(("sink", .object([("sent", .int(result.sent)), ("received", .int(result.received)), ("matched", .int(result.matched)),
                                            ("missing", .int(result.missing.count)), ("unexpected", .int(result.unexpected.count)),
                                            ("notSent", .int(result.notSent.count))])))
        }
        if let expectations {
            pairs.append(("expectations", .object([("passed", .int(expectations.filter(\.passed).count)), ("failed", .int(expectations.filter { !$0.passed }.count))])))
        }
        if !summary.ads.isEmpty { pairs.append(("ads", .array(summary.ads.map { .object(podAd($0)) }))) }
        if let vmap = summary.vmap { pairs.append(("vmap", VMAPRendering.summary(vmap))) }
        if let tracking = summary.tracking { pairs.append(("tracking", TrackedStreamRendering.summary(tracking))) }
        if let serverSide = summary.serverSide { pairs.append(("serverSide", ServerSideRendering.summary(serverSide))) }
        if let loading = summary.loading {
            pairs.append(("loading", .object([("readyTime", .seconds(loading.ready)), ("shownTime", .seconds(loading.shown)),
                                              ("waitTime", .seconds(loading.waited)), ("steps", .array(loading.steps.map { .string($0.text) }))])))
        }
        pairs.append(("warnings", .int(summary.warnings.count)))
        return .object(pairs)
    }
}
