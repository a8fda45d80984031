import PlayerEngine
import Primitives
import TrackingBeacons

extension FleetRunner {
    /// One viewer: its own virtual clock, beacon step (its own `[CACHEBUSTING]` stream) and tracking gate, through
    /// the session core. `macros` and `identity`: the fleet's `BeaconPlanner.macros(for:)` and
    /// `SessionConfiguration.identity`, the same for every viewer.
    static func playOne(_ scenario: FleetScenario, network: Int?, prepared: FleetAd, configuration: FleetConfiguration,
                        environment: SessionEnvironment, wallStart: Int64, macros: [String: String], identity: UInt64, tally: FleetTally,
                        room: FleetTally.Room, dispatcher: BeaconDispatcher) async {
        let session = configuration.session
        let seed = session.seed ^ (UInt64(truncatingIfNeeded: scenario.index) &* 0x9E37_79B9_7F4A_7C15)
        var step = BeaconStep(configuration: session, seed: seed, wallStart: wallStart, macros: macros, identity: identity)
        let outputs = SessionCore.Outputs(
            report: { record in if case let .event(event) = record { tally.event(event, session: scenario.index, hold: room.hold) } },
            submit: { beacon in await dispatcher.submit(beacon, countedAt: await tally.admit(beacon, in: room)) })
        // A replayed timeline never blocks: only a session that decodes for real needs the media executor's threads.
        var sessionEnvironment = environment
        if !configuration.decodeEach { sessionEnvironment.mediaExecutor = nil }
        let adBreak: AdBreak<MediaHandle>
        if configuration.decodeEach {
            adBreak = await Self.decodingBreak(prepared.adBreak(onNetwork: network, thresholds: session.network), configuration: configuration,
                                               environment: environment)
        } else {
            adBreak = Self.replayingBreak(prepared, network: network, thresholds: session.network)
        }
        let result = await SessionCore(environment: sessionEnvironment).run(adBreak, script: scenario.script, clock: sessionEnvironment.playbackClock(.virtual),
                                                                            step: &step, outputs: outputs)
        if !prepared.breakEnd.isEmpty {
            // A VMAP break's end, when its ads are over.
            let end = max(result.playback?.clock ?? .zero, result.ads.compactMap(\.end).max() ?? .zero)
            step.endBreak()
            await SessionCore(environment: sessionEnvironment).submit(step.fire(prepared.breakEnd, errorCode: nil, reason: nil, playhead: nil, clock: end), outputs)
        }
        tally.finished(scenario, network: network.map { configuration.networkMix!.shares[$0].profile.name }, report: result.playback, hold: room.hold)
        if let stitched = step.serverSide { tally.stitched(stitched, hold: room.hold) }
    }

    /// One session's break replaying each verified decode (no file is opened: nothing waits).
    static func replayingBreak(_ prepared: FleetAd, network: Int?, thresholds: SessionConfiguration.NetworkConditions?) -> AdBreak<MediaHandle> {
        func handle(_ timeline: MediaTimeline) -> MediaHandle {
            MediaHandle(source: TimelineMediaSource(timeline), duration: timeline.info.exactDuration, reopen: { TimelineMediaSource(timeline) })
        }
        guard prepared.pod.isEmpty else {
            return AdBreak(kind: .pod, prelude: prepared.plan, turns: prepared.pod.map { $0.withMedia { handle($0.timeline) } })
        }
        return .single(prepared.plan(onNetwork: network, thresholds: thresholds), media: prepared.timeline.map(handle))
    }

    /// One session's break under `--decode-each`: each turn that plays decodes its file for itself (the replay, if
    /// it opens no more); a replay replays the decode.
    static func decodingBreak(_ adBreak: AdBreak<FleetMedia>, configuration: FleetConfiguration, environment: SessionEnvironment) async
        -> AdBreak<MediaHandle> {
        var turns: [AdTurn<MediaHandle>] = []
        for turn in adBreak.turns {
            var decoded: (any MediaSource)?
            if let media = turn.media {
                let open = environment.media.reopener(media.location, timeline: media.timeline.info.timeline, streaming: media.streaming,
                                                      threads: configuration.session.decoderThreads)
                decoded = try? await environment.onMediaExecutor(open)
            }
            turns.append(turn.withMedia { media in
                MediaHandle(source: decoded ?? TimelineMediaSource(media.timeline), duration: media.timeline.info.exactDuration,
                            reopen: { TimelineMediaSource(media.timeline) })
            })
        }
        return AdBreak(kind: adBreak.kind, prelude: adBreak.prelude, turns: turns)
    }
}
