import AdSession
import PlayerEngine
import Primitives

/// `--omid-log FILE`: the Open Measurement (OM SDK) session events a correct integration would have sent for this
/// session, one JSON object per line on the session clock — emulated from vplay's events, never measured: no
/// verification script runs. Event names and data follow OM SDK's `AdEventType` and `VastProperties`
/// (Open-Measurement-JSClients `src/common/constants.js`), so an integrator can compare them with what the IAB
/// validation verification script logs for their app.
///
/// Each ad of the session is one OM ad session: `sessionStart` and `loaded` (its VAST properties) with its first
/// frame, `impression`, `start` (duration, player volume), `playerStateChange` to fullscreen (a rewarded ad), the
/// quartiles and `complete`, `pause`/`resume`, `bufferStart`/`bufferFinish`, `volumeChange` on mute and unmute,
/// `skipped`, `adUserInteraction` (click) and `sessionFinish` when the ad is gone.
enum OMIDLog {
    static func lines(_ transcript: SessionTranscript, breakPosition: Int) -> [JSON] {
        let position = switch breakPosition {
        case 1: "preroll"
        case 2: "midroll"
        case 3: "postroll"
        default: "standalone"
        }
        var lines: [JSON] = []
        var adNumber = 0
        var open: (ad: Int, last: PlaybackEvent)?
        var muted = false
        func line(_ type: String, _ event: PlaybackEvent, data: [(String, JSON)] = []) {
            var pairs: [(String, JSON)] = [("emulated", .bool(true)), ("type", .string(type)), ("clock", .seconds(event.clock)),
                                           ("playhead", .seconds(event.playhead)), ("ad", .int(adNumber))]
            if !data.isEmpty { pairs.append(("data", .object(data))) }
            lines.append(.object(pairs))
        }
        func finish() {
            guard let session = open else { return }
            line("sessionFinish", session.last)
            open = nil
        }
        for event in transcript.events {
            if event.name == .loaded {
                // A new ad (a pod's next, or a replay's is not: replays show no `loaded`).
                finish()
                adNumber += 1
                let info = transcript.resolvedAds.indices.contains(adNumber - 1) ? transcript.resolvedAds[adNumber - 1] : transcript.resolved
                open = (adNumber, event)
                line("sessionStart", event, data: [("environment", .string("app")), ("adSessionType", .string("native")),
                                                   ("creativeType", .string("video")), ("impressionType", .string("beginToRender")),
                                                   ("mediaType", .string("video"))])
                line("loaded", event, data: [("skippable", .bool(info?.skipOffset != nil)),
                                             ("skipOffset", info?.skipOffset.map(JSON.seconds) ?? .null),
                                             ("autoPlay", .bool(true)), ("position", .string(position))])
                continue
            }
            guard open != nil else { continue }
            open?.last = event
            switch event.name {
            case .impression: line("impression", event)
            case .start:
                let duration = transcript.resolvedAds.indices.contains(adNumber - 1) ? transcript.resolvedAds[adNumber - 1].media.exactDuration : nil
                line("start", event, data: [("duration", duration.map(JSON.seconds) ?? .null), ("mediaPlayerVolume", .int(muted ? 0 : 1))])
                line("playerStateChange", event, data: [("state", .string("fullscreen"))])
            case .firstQuartile, .midpoint, .thirdQuartile, .complete, .pause, .resume, .bufferStart, .bufferFinish:
                line(event.name.rawValue, event)
            case .mute, .unmute:
                muted = event.name == .mute
                line("volumeChange", event, data: [("mediaPlayerVolume", .int(muted ? 0 : 1))])
            case .skip: line("skipped", event)
            case .click, .endCardClick, .iconClick: line("adUserInteraction", event, data: [("interactionType", .string("click"))])
            case .close, .abandoned: finish()
            default: break
            }
        }
        finish()
        return lines
    }
}
