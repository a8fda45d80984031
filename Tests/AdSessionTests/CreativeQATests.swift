@testable import AdSession
import Findings
@testable import PlayerEngine
import Foundation
import Testing
import TestSupport

/// `lint`'s creative QA end to end in process: each sample tag of `media/qa` resolved, its clip decoded once through
/// the meters, and exactly the creative rules that clip was made to break reported.
@Suite struct CreativeQATests {
    static func ids(_ tag: String, _ targets: CreativeTargets = .atsc) async -> [String] {
        let lint = await TagLint.lint(SessionConfiguration(tag: Repo.media("qa/\(tag).xml")), openMedia: true, creative: targets, policy: RulePolicy())
        return lint.findings.map(\.finding.rule).filter { $0.hasPrefix("VPLAY-creative") || $0.hasPrefix("VPLAY-media") || $0.hasPrefix("VPLAY-error") }
    }

    @Test func eachClipBreaksExactlyTheRulesItWasMadeToBreak() async {
        let measured = "VPLAY-creative-loudness-measured"
        #expect(await Self.ids("reference") == [measured])
        #expect(await Self.ids("loud") == ["VPLAY-creative-loudness", "VPLAY-creative-true-peak", measured, "VPLAY-creative-h264-profile",
                                          "VPLAY-creative-audio-sample-rate", "VPLAY-creative-audio-channels", "VPLAY-creative-audio-bitrate",
                                          "VPLAY-creative-duration-standard"])
        #expect(await Self.ids("black-silent") == [measured, "VPLAY-creative-black-start", "VPLAY-creative-black-end", "VPLAY-creative-silent-end"],
                "5 s is within 1 s of 6")
        #expect(await Self.ids("frozen-silent") == [measured, "VPLAY-creative-frozen-start", "VPLAY-creative-frozen-end", "VPLAY-creative-silent-start"])
        #expect(await Self.ids("interlaced") == [measured, "VPLAY-creative-interlaced", "VPLAY-creative-duration-standard"])
        #expect(await Self.ids("trailing-moov") == ["VPLAY-media-moov-after-mdat", measured, "VPLAY-creative-h264-level", "VPLAY-creative-duration-standard"])
    }

    @Test func theLoudnessTarget_decidesTheFinding() async throws {
        // The reference measures -24 LUFS: inside ATSC's -24 ±2 and, 1 LU off, just inside EBU's -23 ±1. A target of
        // -16 ±1 (a streaming platform's) puts it 8 LU under.
        #expect(await !Self.ids("reference", .ebu).contains("VPLAY-creative-loudness"))
        let loud = try CreativeTargets.loudness("-16+-1")
        #expect(await Self.ids("reference", loud).contains("VPLAY-creative-loudness"))
        let lint = await TagLint.lint(SessionConfiguration(tag: Repo.media("qa/reference.xml")), openMedia: true, creative: loud, policy: RulePolicy())
        let finding = try #require(lint.findings.first { $0.finding.rule == "VPLAY-creative-loudness" })
        #expect(finding.finding.message == "integrated loudness -24 LUFS; -16 LUFS ±1 asks -16 ±1", "\(finding.finding.message)")
        // The reference peaks at -23.2 dBTP: under the default -6 ceiling, over a -30 one.
        #expect(await !Self.ids("reference").contains("VPLAY-creative-true-peak"))
        let strict = try CreativeTargets.loudness("atsc", maxTruePeak: -30)
        #expect(await Self.ids("reference", strict).contains("VPLAY-creative-true-peak"))
    }

    @Test func loudnessTargets_parse() throws {
        #expect(try CreativeTargets.loudness("atsc") == .atsc)
        #expect(try CreativeTargets.loudness("EBU") == .ebu)
        for text in ["-16±1", "-16+-1", "-16:1", " -16 : 1 "] {
            let target = try CreativeTargets.loudness(text)
            #expect(target.loudness == -16 && target.tolerance == 1, "\(text)")
        }
        for bad in ["", "loud", "-16", "16+-1", "-16+-30", "-16±1±2"] {
            #expect(throws: CreativeTargetError.self, "\(bad)") { try CreativeTargets.loudness(bad) }
        }
    }

    /// What a hostile file can put in its headers never traps a conversion: an infinite frame rate, a non-finite
    /// loudness.
    @Test func nonFiniteFigures_areWordsNotTraps() {
        #expect(CreativeTargets.number(.infinity) == "inf" && CreativeTargets.number(-.infinity) == "-inf" && CreativeTargets.number(.nan) == "nan")
        let video = PlayerEngine.StreamInfo(index: 0, type: .video, codec: "h264", decodable: true, width: 1920, height: 1080, fps: .infinity, profile: "High", level: 40)
        #expect(CreativeQA.h264(video).isEmpty, "a rate that is no number is not judged")
        var report = CreativeReport()
        report.loudness = .init(integrated: .infinity, range: nil, truePeak: .nan, samplePeak: nil)
        #expect(CreativeQA.loudness(report, targets: .atsc).map(\.rule).contains("VPLAY-creative-loudness-measured"))
    }

    @Test func withoutTargetsNothingIsDecoded() async {
        let lint = await TagLint.lint(SessionConfiguration(tag: Repo.media("qa/loud.xml")), openMedia: true, policy: RulePolicy())
        #expect(!lint.findings.contains { $0.finding.rule.hasPrefix("VPLAY-creative") })
    }
}

/// A clip many tags of one call play is decoded once, and each tag still gets its findings.
@Suite struct CreativeCacheTests {
    @Test func aSharedClip_isMeasuredOnce_andEveryTagReportsIt() async throws {
        var targets = CreativeTargets.atsc
        let cache = CreativeCache()
        targets.cache = cache
        let first = await TagLint.lint(SessionConfiguration(tag: Repo.media("qa/loud.xml")), openMedia: true, creative: targets, policy: RulePolicy())
        // Kept by the clip itself, however the tag wrote its path (`../qa-loud.mp4`).
        let kept = try #require(cache.entry(for: Repo.media("qa-loud.mp4"))?.report)
        #expect(kept.loudness?.integrated.map { abs($0 - -3.9) < 0.1 } == true)
        // Another tag of the same clip, written elsewhere, reads the kept measurement instead of decoding: a planted
        // one (silent throughout) shows through.
        var planted = kept
        planted.silentThroughout = true
        cache.store(.init(report: planted, failure: nil), for: Repo.media("qa-loud.mp4"))
        let folder = try TemporaryFolder()
        let text = try String(contentsOfFile: Repo.media("qa/loud.xml"), encoding: .utf8).replacingOccurrences(of: "../qa-loud.mp4", with: Repo.media("qa-loud.mp4"))
        let second = await TagLint.lint(SessionConfiguration(tag: try folder.write("again.xml", text)), openMedia: true, creative: targets, policy: RulePolicy())
        #expect(!first.findings.contains { $0.finding.message.contains("silent throughout") })
        #expect(second.findings.contains { $0.finding.rule == "VPLAY-creative-silent-start" && $0.finding.message.contains("silent throughout") },
                "the second tag's clip was not decoded again")
        // The cache never changes what targets are equal to.
        #expect(targets == .atsc)
    }
}
