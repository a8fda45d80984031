import Findings
import Foundation
import PlayerEngine

/// The findings of creative QA: the decode pass's measurements (`CreativeReport`) and the streams' parameters
/// (`MediaInfo`) against the IAB Tech Lab's ad format guidelines and the standards they cite (`Rule.creativeRules`).
enum CreativeQA {
    /// A leader or trailer this long or longer is a finding: longer than a fade (a few frames), shorter than any slate.
    static let leader = 0.5
    /// The standard lengths an ad should have, seconds, and how far off passes.
    static let standardDurations = [6.0, 15, 20, 30], durationTolerance = 1.0
    /// AAC-LC's bitrate range, kbps, and the share either side that still passes.
    static let audioBitrate = (low: 128.0, high: 192.0, tolerance: 0.25)

    static func findings(_ report: CreativeReport, info: MediaInfo, targets: CreativeTargets) -> [Finding] {
        var findings = loudness(report, targets: targets)
        findings += leaders(report)
        if report.interlacedFrames > 0 {
            findings.append(Finding(.creativeInterlaced, "\(report.interlacedFrames) of \(report.videoFrames) video frames are coded interlaced (re-encode progressive)"))
        }
        if let video = info.video, video.codec == "h264" { findings += h264(video) }
        if let audio = info.audio { findings += self.audio(audio, container: info.format) }
        if let duration = duration(info.duration) { findings.append(duration) }
        return findings
    }

    static func loudness(_ report: CreativeReport, targets: CreativeTargets) -> [Finding] {
        guard let measured = report.loudness else { return [] }
        var findings: [Finding] = []
        let n = CreativeTargets.number
        if let integrated = measured.integrated, abs(integrated - targets.loudness) > targets.tolerance {
            findings.append(Finding(.creativeLoudness, "integrated loudness \(n(integrated)) LUFS; \(targets.name) asks \(n(targets.loudness)) ±\(n(targets.tolerance))"))
        }
        if let peak = measured.truePeak, peak > targets.maxTruePeak {
            findings.append(Finding(.creativeTruePeak, "true peak \(n(peak)) dBTP; at most \(n(targets.maxTruePeak)) dBTP"))
        }
        let integrated = measured.integrated.map { "\(n($0)) LUFS" } ?? "not measurable (silent)"
        let range = measured.range.map { "\(n($0)) LU" } ?? "not measurable (under 3 s)"
        let peak = measured.truePeak.map { "\(n($0)) dBTP" } ?? "none (digital silence)"
        findings.append(Finding(.creativeLoudnessMeasured, "integrated loudness \(integrated), loudness range \(range), true peak \(peak)"))
        return findings
    }

    static func leaders(_ report: CreativeReport) -> [Finding] {
        var findings: [Finding] = []
        func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }
        if report.blackStart >= leader { findings.append(Finding(.creativeBlackStart, "the picture is black for its first \(seconds(report.blackStart))")) }
        if report.blackEnd >= leader { findings.append(Finding(.creativeBlackEnd, "the picture is black for its last \(seconds(report.blackEnd))")) }
        // Black is held too; a held picture is its own finding when it is not black.
        if report.frozenStart >= leader, report.blackStart < leader {
            findings.append(Finding(.creativeFrozenStart, "the first picture is held for \(seconds(report.frozenStart))"))
        }
        if report.frozenEnd >= leader, report.blackEnd < leader {
            findings.append(Finding(.creativeFrozenEnd, "the last picture is held for \(seconds(report.frozenEnd))"))
        }
        if report.silentThroughout {
            findings.append(Finding(.creativeSilentStart, "the sound is silent throughout (every sample under -60 dBFS)"))
        } else {
            if report.silentStart >= leader { findings.append(Finding(.creativeSilentStart, "the sound is silent for its first \(seconds(report.silentStart))")) }
            if report.silentEnd >= leader { findings.append(Finding(.creativeSilentEnd, "the sound is silent for its last \(seconds(report.silentEnd))")) }
        }
        return findings
    }

    /// H.264 levels (`level_idc`, ten times the level; 9 is 1b) and their limits: the largest picture in macroblocks
    /// (MaxFS) and macroblocks a second (MaxMBPS), ITU-T H.264 Table A-1.
    static let h264Levels: [Int: (frame: Int, rate: Int)] = [
        9: (99, 1485), 10: (99, 1485), 11: (396, 3000), 12: (396, 6000), 13: (396, 11880), 20: (396, 11880), 21: (792, 19800),
        22: (1620, 20250), 30: (1620, 40500), 31: (3600, 108_000), 32: (5120, 216_000), 40: (8192, 245_760), 41: (8192, 245_760),
        42: (8704, 522_240), 50: (22080, 589_824), 51: (36864, 983_040), 52: (36864, 2_073_600), 60: (139_264, 4_177_920),
        61: (139_264, 8_355_840), 62: (139_264, 16_711_680),
    ]

    static let h264Profiles: Set = ["Baseline", "Constrained Baseline", "Main", "High"]

    static func h264(_ video: StreamInfo) -> [Finding] {
        var findings: [Finding] = []
        if let profile = video.profile, !h264Profiles.contains(profile) {
            findings.append(Finding(.creativeH264Profile, "the H.264 profile is \(profile); devices decode Baseline, Main and High"))
        }
        if let level = video.level, let limits = h264Levels[level], let width = video.width, let height = video.height {
            let macroblocks = ((width + 15) / 16) * ((height + 15) / 16)
            let name = level == 9 ? "1b" : "\(level / 10).\(level % 10)"
            if macroblocks > limits.frame {
                findings.append(Finding(.creativeH264Level, "H.264 level \(name) allows \(limits.frame) macroblocks a picture; \(width)x\(height) has \(macroblocks)"))
            } else if let fps = video.fps, fps.isFinite, fps > 0, fps < 10_000, Double(macroblocks) * fps > Double(limits.rate) * 1.001 {
                findings.append(Finding(.creativeH264Level, "H.264 level \(name) allows \(limits.rate) macroblocks a second; \(width)x\(height) at \(CreativeTargets.number(fps)) fps needs \(Int((Double(macroblocks) * fps).rounded()))"))
            }
        }
        return findings
    }

    static func audio(_ audio: StreamInfo, container: String) -> [Finding] {
        var findings: [Finding] = []
        let isWebM = container.contains("webm")
        let codec = audio.codec == "aac" ? "AAC" + (audio.profile.map { $0 == "LC" ? "-LC" : " (\($0))" } ?? "") : audio.codec
        if isWebM ? !["vorbis", "opus"].contains(audio.codec) : codec != "AAC-LC" {
            findings.append(Finding(.creativeAudioCodec, "the audio is \(codec); \(isWebM ? "a WebM's is Vorbis or Opus" : "an MP4's is AAC-LC")"))
        }
        if let rate = audio.sampleRate, rate != 48000 {
            findings.append(Finding(.creativeAudioSampleRate, "the audio is sampled at \(CreativeTargets.number(Double(rate) / 1000)) kHz; 48 kHz is preferred"))
        }
        if let channels = audio.channels, channels != 2 {
            findings.append(Finding(.creativeAudioChannels, "the audio has \(channels == 1 ? "one channel (mono)" : "\(channels) channels"); stereo is expected"))
        }
        if codec == "AAC-LC", let rate = audio.bitRate {
            let kbps = Double(rate) / 1000
            if kbps < audioBitrate.low * (1 - audioBitrate.tolerance) || kbps > audioBitrate.high * (1 + audioBitrate.tolerance) {
                findings.append(Finding(.creativeAudioBitrate, "the AAC-LC audio averages \(Int(kbps.rounded())) kbps; 128-192 kbps is expected"))
            }
        }
        return findings
    }

    static func duration(_ seconds: Double) -> Finding? {
        guard !standardDurations.contains(where: { abs($0 - seconds) <= durationTolerance }) else { return nil }
        return Finding(.creativeDurationStandard, "the media lasts \(String(format: "%.2f", seconds)) s; standard ads last 6, 15, 20 or 30 s (within 1 s)")
    }
}
