import Foundation
import Testing
@_spi(LiveParts) import PlayerEngine
import TestSupport

/// Creative QA in the decode pass, on the clips `media/make-media.sh` makes with FFmpeg's own filters, against
/// FFmpeg's own meters: `ebur128` for loudness and true peak (BS.1770 / EBU R128), the filters' defaults for
/// black, held pictures and silence.
@Suite struct CreativeAnalysisTests {
    static let clips = ["qa-reference.mp4", "qa-loud.mp4", "qa-black-silent.mp4", "qa-frozen-silent.mp4", "qa-interlaced.mp4",
                        "qa-trailing-moov.mp4", "clip-10s-360p.mp4", "clip-audio-outlasts-video.mp4"]

    /// Decodes `name` once with creative QA on.
    static func analyze(_ name: String) async throws -> CreativeReport {
        try await offThePool {
            var options = MediaOpenOptions(decoderThreads: 1)
            options.analyzeCreative = true
            let source = try FFmpegMediaSource(location: Repo.media(name), options: options)
            while try source.nextFrame() != nil {}
            return source.creativeReport!
        }
    }

    /// FFmpeg's `ebur128` summary for `name`: integrated loudness (LUFS) and true peak (dBTP).
    static func ebur128(_ name: String) async throws -> (integrated: Double, truePeak: Double) {
        let output = try await offThePool {
            try run("sh", ["-c", "ffmpeg -nostats -hide_banner -i \"$0\" -af ebur128=peak=true -f null - 2>&1", Repo.media(name)])
        }
        let summary = try #require(output.components(separatedBy: "Summary:").last)
        func value(after label: String) throws -> Double {
            let line = try #require(summary.components(separatedBy: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(label) })
            return try #require(Double(line.split(separator: " ").dropFirst().first.map(String.init) ?? ""), "\(line)")
        }
        return (try value(after: "I:"), try value(after: "Peak:"))
    }

    @Test(arguments: clips) func loudnessAndTruePeak_agreeWithFFmpegsEbur128(_ clip: String) async throws {
        let report = try await Self.analyze(clip)
        let ffmpeg = try await Self.ebur128(clip)
        let loudness = try #require(report.loudness)
        let integrated = try #require(loudness.integrated)
        let peak = try #require(loudness.truePeak)
        #expect(abs(integrated - ffmpeg.integrated) <= 0.1, "\(clip): vplay \(integrated) LUFS, ffmpeg \(ffmpeg.integrated)")
        #expect(abs(peak - ffmpeg.truePeak) <= 0.2, "\(clip): vplay \(peak) dBTP, ffmpeg \(ffmpeg.truePeak)")
    }

    @Test func leadersAndTrailers_areWhereTheClipsPutThem() async throws {
        func near(_ value: Double, _ expected: Double) -> Bool { abs(value - expected) <= 0.05 }
        let reference = try await Self.analyze("qa-reference.mp4")
        #expect(reference.blackStart == 0 && reference.blackEnd == 0 && reference.silentStart < 0.01 && reference.silentEnd < 0.05, "\(reference)")
        #expect(reference.frozenStart < 0.05 && reference.frozenEnd < 0.05, "testsrc2 moves every frame")
        #expect(reference.interlacedFrames == 0 && reference.videoFrames == 150 && !reference.moovAfterMediaData)

        let black = try await Self.analyze("qa-black-silent.mp4")
        #expect(near(black.blackStart, 1) && near(black.blackEnd, 1), "\(black)")
        #expect(near(black.silentEnd, 1) && black.silentStart < 0.01 && !black.silentThroughout, "\(black)")

        let frozen = try await Self.analyze("qa-frozen-silent.mp4")
        #expect(frozen.blackStart == 0 && frozen.blackEnd == 0, "a grey slate is not black")
        #expect(near(frozen.frozenStart, 1) && near(frozen.frozenEnd, 1.04), "the held last frame and its 25 clones: \(frozen)")
        #expect(near(frozen.silentStart, 1) && frozen.silentEnd < 0.05, "\(frozen)")

        let interlaced = try await Self.analyze("qa-interlaced.mp4")
        #expect(interlaced.interlacedFrames == interlaced.videoFrames && interlaced.videoFrames == 75)

        let trailing = try await Self.analyze("qa-trailing-moov.mp4")
        #expect(trailing.moovAfterMediaData)
    }

    @Test func theStreamsProfileAndLevel_areRead() throws {
        let loud = try FFmpegMediaSource(location: Repo.media("qa-loud.mp4"), options: MediaOpenOptions(decoderThreads: 1, openDecoders: false, measureTimeline: false))
        #expect(loud.info.video?.profile == "High 4:4:4 Predictive" && loud.info.video?.level == 12)
        #expect(loud.info.audio?.profile == "LC" && loud.info.audio?.channels == 1 && loud.info.audio?.sampleRate == 44100)
        let plain = try FFmpegMediaSource(location: Repo.media("qa-trailing-moov.mp4"), options: MediaOpenOptions(decoderThreads: 1, openDecoders: false, measureTimeline: false))
        #expect(plain.info.video?.level == 10)
        #expect(plain.creativeReport == nil, "not measured unless asked")
    }
}
