import Findings

/// Creative QA: what `vplay lint` measures of the decoded media in its one decode pass (loudness, leaders, scan)
/// and reads of its streams (profile, level, audio format), against the IAB Tech Lab's Digital Video and CTV Ad Format
/// Guidelines and the standards they cite. vastlint, which never opens the media, has none of them.
public extension Rule {
    static let creativeLoudness = Rule("VPLAY-creative-loudness", .warning, spec: "IAB Ad Format Guidelines (audio: -24 LKFS ±2, ATSC A/85; -23 LUFS ±1, EBU R128); ITU-R BS.1770-4",
                                       "the integrated loudness must be within the target (--loudness; default ATSC A/85, -24 LKFS ±2)")
    static let creativeTruePeak = Rule("VPLAY-creative-true-peak", .warning, spec: "IAB Ad Format Guidelines (audio: true peak); ITU-R BS.1770-4 Annex 2",
                                       "the true peak must not exceed the ceiling (--max-true-peak; default -6 dBTP)")
    static let creativeLoudnessMeasured = Rule("VPLAY-creative-loudness-measured", .info, spec: "ITU-R BS.1770-4; EBU Tech 3341, 3342",
                                               "the measured integrated loudness, loudness range and true peak, for the record")
    static let creativeBlackStart = Rule("VPLAY-creative-black-start", .warning, spec: "IAB Ad Format Guidelines (video: no slate, countdown or black leader)",
                                         "the picture must not open on black (0.5 s or more)")
    static let creativeBlackEnd = Rule("VPLAY-creative-black-end", .warning, spec: "IAB Ad Format Guidelines (video: no slate, countdown or black leader)",
                                       "the picture must not close on black (0.5 s or more)")
    static let creativeFrozenStart = Rule("VPLAY-creative-frozen-start", .warning, spec: "IAB Ad Format Guidelines (video: no slate, countdown or black leader)",
                                          "the picture must not open on a held frame, a slate (0.5 s or more)")
    static let creativeFrozenEnd = Rule("VPLAY-creative-frozen-end", .warning, spec: "IAB Ad Format Guidelines (video: no slate, countdown or black leader)",
                                        "the picture must not close on a held frame (0.5 s or more)")
    static let creativeSilentStart = Rule("VPLAY-creative-silent-start", .warning, spec: "IAB Ad Format Guidelines (no leader); FFmpeg silencedetect (-60 dB)",
                                          "the sound must not open on silence (0.5 s or more), nor be silent throughout")
    static let creativeSilentEnd = Rule("VPLAY-creative-silent-end", .warning, spec: "IAB Ad Format Guidelines (no leader); FFmpeg silencedetect (-60 dB)",
                                        "the sound must not close on silence (0.5 s or more)")
    static let creativeInterlaced = Rule("VPLAY-creative-interlaced", .warning, spec: "IAB Ad Format Guidelines (video: progressive scan)",
                                         "the video must be coded progressive, not interlaced")
    static let creativeH264Profile = Rule("VPLAY-creative-h264-profile", .warning, spec: "IAB Ad Format Guidelines (video: H.264 Baseline, Main or High); ITU-T H.264 Annex A",
                                          "H.264 video must use the Baseline, Main or High profile, which every device decodes")
    static let creativeH264Level = Rule("VPLAY-creative-h264-level", .warning, spec: "ITU-T H.264 Annex A, Table A-1 (MaxFS, MaxMBPS)",
                                        "the H.264 level the stream declares must allow its picture size and frame rate")
    static let creativeAudioCodec = Rule("VPLAY-creative-audio-codec", .warning, spec: "IAB Ad Format Guidelines (audio: AAC-LC in MP4)",
                                         "an MP4's audio must be AAC-LC (a WebM's Vorbis or Opus)")
    static let creativeAudioSampleRate = Rule("VPLAY-creative-audio-sample-rate", .info, spec: "IAB Ad Format Guidelines (audio: 48 kHz preferred)",
                                              "the audio should be sampled at 48 kHz")
    static let creativeAudioChannels = Rule("VPLAY-creative-audio-channels", .warning, spec: "IAB Ad Format Guidelines (audio: stereo)",
                                            "the audio must be stereo")
    static let creativeAudioBitrate = Rule("VPLAY-creative-audio-bitrate", .warning, spec: "IAB Ad Format Guidelines (audio: AAC-LC 128-192 kbps)",
                                           "AAC-LC audio must average 128-192 kbps (vplay allows 25 %: an encoder spends less on simple sound)")
    static let creativeDurationStandard = Rule("VPLAY-creative-duration-standard", .info, spec: "IAB Ad Format Guidelines (duration: 6, 15, 20 or 30 s, within 1 s)",
                                               "the ad should last 6, 15, 20 or 30 s, within 1 s")

    /// Every creative rule, in the order `vplay rules` lists them.
    static let creativeRules: [Rule] = [
        .creativeLoudness, .creativeTruePeak, .creativeLoudnessMeasured, .creativeBlackStart, .creativeBlackEnd, .creativeFrozenStart,
        .creativeFrozenEnd, .creativeSilentStart, .creativeSilentEnd, .creativeInterlaced, .creativeH264Profile, .creativeH264Level,
        .creativeAudioCodec, .creativeAudioSampleRate, .creativeAudioChannels, .creativeAudioBitrate, .creativeDurationStandard,
    ]
}
