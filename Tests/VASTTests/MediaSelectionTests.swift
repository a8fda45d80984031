import Foundation
import Testing
@testable import VAST

@Suite("Media file selection")
struct MediaSelectionTests {
    static let files: [MediaFile] = [
        MediaFile(id: "stream", delivery: "streaming", type: "application/x-mpegURL", width: 1920, height: 1080, bitrate: 4000, url: "https://c/x.m3u8"),
        MediaFile(id: "vpaid", delivery: "progressive", type: "application/javascript", width: 640, height: 360, apiFramework: "VPAID", url: "https://c/v.js"),
        MediaFile(id: "low", delivery: "progressive", type: "video/mp4", width: 640, height: 360, bitrate: 600, url: "https://c/low.mp4"),
        MediaFile(id: "mid", delivery: "progressive", type: "video/mp4", width: 854, height: 480, minBitrate: 700, maxBitrate: 1500, url: "https://c/mid.mp4"),
        MediaFile(id: "high", delivery: "progressive", type: "video/mp4", width: 1280, height: 720, bitrate: 2000, url: "https://c/high.mp4"),
        MediaFile(id: "high-webm", delivery: "progressive", type: "video/webm", width: 1280, height: 720, bitrate: 2000, url: "https://c/high.webm"),
    ]

    /// The order a player tries the files in is chosen once, and equals choosing again among the files left each
    /// time one fails: every progressive file by the rules, then the manifest once no progressive file is left (the
    /// kind preference applied to what is left, so the manifest's turn sets nothing aside).
    @Test func ranking_isTheRulesAppliedAgainToWhatIsLeft_withStructuredReasons() throws {
        let ranking = try MediaFileSelector.rank(Self.files)
        #expect(ranking.candidates.map(\.file.id) == ["high", "high-webm", "mid", "low", "stream"])
        #expect(ranking.candidates.map(\.preferStreaming) == [false, false, false, false, nil])
        #expect(ranking.candidates[0].why == .rules([.highestBitrate(kbps: 2000)], tieBroken: true))
        #expect(ranking.candidates[2].why == .rules([.highestBitrate(kbps: 1100)], tieBroken: false))
        #expect(ranking.unplayable == [2: .interactive(apiFramework: "VPAID")])
        #expect(ranking.selection(at: 0) == (try MediaFileSelector.select(from: Self.files)))

        // The manifest's turn, once every progressive file failed: those say so, nothing is "preferred" any more.
        let failed = Dictionary(uniqueKeysWithValues: [3, 4, 5, 6].map { ($0, MediaFileRejection.couldNotOpen(code: .mediaFileNotFound, message: "gone")) })
        let last = ranking.selection(at: 4, failures: failed)
        #expect(last.index == 1 && last.reason == "highest bitrate 4000 kbps → #1 (id stream, application/x-mpegURL, 4000 kbps, 1920x1080)")
        #expect(last.rejected.map(\.reason) == ["VPAID apiFramework (interactive JavaScript, not played)"] + Array(repeating: "could not be played (VAST 401: gone)", count: 4))
        // Before that, the manifest is set aside for the progressive kind.
        #expect(ranking.selection(at: 1).rejected.first { $0.index == 1 }?.why == .otherKindPreferred(preferStreaming: false))
    }

    /// A file listed twice is one candidate (it is not tried twice), and the copy is not counted by the rules after it.
    @Test func ranking_triesAFileListedTwiceOnce() throws {
        let a = MediaFile(id: "a", type: "video/mp4", width: 640, height: 360, bitrate: 900, url: "https://c/a.mp4")
        let b = MediaFile(id: "b", type: "video/mp4", width: 640, height: 360, bitrate: 500, url: "https://c/b.mp4")
        let ranking = try MediaFileSelector.rank([a, b, a])
        #expect(ranking.candidates.map(\.index) == [1, 2])
        let forced = try MediaFileSelector.rank([a, b], criteria: .init(forcedFile: "2"))
        #expect(forced.candidates.map(\.index) == [2] && forced.candidates[0].why == .forced("2", byID: false, warning: nil))
        #expect(forced.selection(at: 0).reason == "forced by --media-file 2 (index)")
    }

    @Test func hlsBesideProgressiveFiles_isPassedOver_andVPAIDRejected_withReasons() throws {
        let selection = try MediaFileSelector.select(from: Self.files)
        let reasons = Dictionary(uniqueKeysWithValues: selection.rejected.map { ($0.file.id ?? "", $0.reason) })
        #expect(reasons["stream"] == "playable; a progressive file is preferred (HLS and DASH are the fallback; --prefer-streaming)")
        #expect(reasons["vpaid"]?.contains("VPAID") == true)
        #expect(reasons["low"]?.hasPrefix("playable") == true)
        #expect(selection.rejected.count == Self.files.count - 1)
    }

    // Issue 23: `delivery` is a hint; HLS plays; DASH says why not.
    @Test func mp4LabelledStreaming_isPlayedAsTheProgressiveFileItIs() throws {
        let file = MediaFile(id: "mp4", delivery: "streaming", type: "video/mp4", width: 640, height: 360, bitrate: 500, url: "https://c/a.mp4")
        #expect(MediaFileSelector.unplayable(file) == nil)
        #expect(try MediaFileSelector.select(from: [file]).file.id == "mp4")
    }

    @Test func hlsOnly_isChosen_byTypeOrByItsM3U8Path() throws {
        let typed = MediaFile(id: "typed", delivery: "streaming", type: "application/vnd.apple.mpegurl", url: "https://c/master")
        let byPath = MediaFile(id: "path", delivery: "streaming", type: "video/unknown", url: "https://c/ad/index.M3U8?token=1")
        #expect(try MediaFileSelector.select(from: [typed]).file.id == "typed")
        #expect(try MediaFileSelector.select(from: [byPath]).file.id == "path")
        #expect(MediaFileSelector.isHLS(byPath))
    }

    @Test func preferStreaming_choosesAmongTheHLSPlaylists() throws {
        var criteria = MediaSelectionCriteria()
        criteria.preferStreaming = true
        let selection = try MediaFileSelector.select(from: Self.files, criteria: criteria)
        #expect(selection.file.id == "stream")
        let reasons = Dictionary(uniqueKeysWithValues: selection.rejected.map { ($0.file.id ?? "", $0.reason) })
        #expect(reasons["high"] == "playable; an HLS or DASH manifest is preferred (--prefer-streaming)")
    }

    @Test func dashOnly_isChosen_byTypeOrByItsMPDPath_andIsAFallbackBehindProgressiveFiles() throws {
        let typed = MediaFile(id: "dash", delivery: "streaming", type: "application/dash+xml", url: "https://c/manifest")
        let byPath = MediaFile(id: "path", delivery: "streaming", type: "video/unknown", url: "https://c/ad/Manifest.MPD?token=1")
        #expect(MediaFileSelector.unplayable(typed) == nil)
        #expect(try MediaFileSelector.select(from: [typed]).file.id == "dash")
        #expect(try MediaFileSelector.select(from: [byPath]).file.id == "path")
        #expect(MediaFileSelector.isDASH(byPath) && !MediaFileSelector.isHLS(byPath))
        let mp4 = MediaFile(id: "mp4", delivery: "progressive", type: "video/mp4", bitrate: 100, url: "https://c/a.mp4")
        #expect(try MediaFileSelector.select(from: [typed, mp4]).file.id == "mp4")
        var criteria = MediaSelectionCriteria()
        criteria.preferStreaming = true
        #expect(try MediaFileSelector.select(from: [mp4, typed], criteria: criteria).file.id == "dash")
    }

    @Test func noTarget_choosesTheHighestBitrate_andMP4WinsTheTie() throws {
        let selection = try MediaFileSelector.select(from: Self.files)
        #expect(selection.file.id == "high")
        #expect(selection.index == 5)
        #expect(selection.reason.contains("MIME"))
    }

    @Test(arguments: [(5000, "high"), (2000, "high"), (1999, "mid"), (1100, "mid"), (1099, "low"), (100, "low")])
    func targetBandwidth_choosesTheHighestBitrateNotAboveIt_elseTheLowest(_ kbps: Int, _ id: String) throws {
        // "mid" has no bitrate: the average of 700 and 1500 (1100 kbps) is used.
        let selection = try MediaFileSelector.select(from: Self.files, criteria: .init(targetBitrateKbps: kbps))
        #expect(selection.file.id == id)
    }

    @Test(arguments: [(1920, 1080, "high"), (1000, 600, "mid"), (640, 360, "low"), (320, 240, "low")])
    func screenSize_choosesTheLargestAreaNotAboveIt_elseTheSmallest(_ w: Int, _ h: Int, _ id: String) throws {
        let selection = try MediaFileSelector.select(from: Self.files, criteria: .init(screenWidth: w, screenHeight: h))
        #expect(selection.file.id == id)
    }

    /// Finding 8: A meets the bandwidth only, B meets the bandwidth and the screen. B used to lose because the
    /// bitrate rule ran first and left only A.
    @Test func bandwidthAndScreen_preferTheFileThatMeetsBoth() throws {
        let files = [
            MediaFile(id: "A", delivery: "progressive", type: "video/mp4", width: 1920, height: 1080, bitrate: 2000, url: "https://c/a.mp4"),
            MediaFile(id: "B", delivery: "progressive", type: "video/mp4", width: 640, height: 360, bitrate: 1000, url: "https://c/b.mp4"),
        ]
        let selection = try MediaFileSelector.select(from: files, criteria: .init(targetBitrateKbps: 5000, screenWidth: 640, screenHeight: 360))
        #expect(selection.file.id == "B")
        #expect(selection.reason.contains("fit 640x360"))
    }

    @Test(arguments: [
        (5000, 1280, 720, "high"),   // low, mid and high fit: the highest bitrate ≤ 5000 among them
        (1500, 1280, 720, "mid"),    // all three fit: 1100 kbps (mid) is the highest ≤ 1500
        (100, 1280, 720, "low"),     // nothing ≤ 100 kbps: the lowest bitrate among the fitting files
        (5000, 854, 480, "mid"),     // high does not fit 854x480: the best of low and mid
        (5000, 320, 240, "low"),     // nothing fits: the smallest files (low), whatever the bandwidth
    ])
    func bandwidthAndScreen_screenFirstThenTheHighestBitrateNotAboveTheTarget(_ kbps: Int, _ w: Int, _ h: Int, _ id: String) throws {
        let selection = try MediaFileSelector.select(from: Self.files, criteria: .init(targetBitrateKbps: kbps, screenWidth: w, screenHeight: h))
        #expect(selection.file.id == id)
    }

    /// Finding 2: `width × height` of two 18-digit attributes trapped (SIGILL) in `MediaFile.area`.
    @Test func hugeNumbers_neverOverflow() throws {
        #expect(MediaFile(width: 999_999_999_999_999_999, height: 999_999_999_999_999_999, url: "u").area == Int.max)
        #expect(MediaFile(width: Int.min, height: 2, url: "u").area == Int.min)
        #expect(MediaFile(minBitrate: Int.max, maxBitrate: Int.max, url: "u").effectiveBitrate == Int.max)
        #expect(MediaFile(minBitrate: Int.max - 1, maxBitrate: Int.max, url: "u").effectiveBitrate == Int.max - 1)
        #expect(MediaFile(minBitrate: 700, maxBitrate: 1500, url: "u").effectiveBitrate == 1100)
        let files = [MediaFile(delivery: "progressive", type: "video/mp4", width: Int.max, height: Int.max, bitrate: Int.max, url: "https://c/x.mp4"),
                     MediaFile(delivery: "progressive", type: "video/mp4", width: 3, height: 2, url: "https://c/y.mp4")]
        for criteria in [MediaSelectionCriteria(), .init(screenWidth: Int.max, screenHeight: Int.max),
                         .init(targetBitrateKbps: Int.max, screenWidth: 640, screenHeight: 360), .init(adcashQuality: .mid)] {
            _ = try MediaFileSelector.select(from: files, criteria: criteria)
        }
    }

    @Test func absurdMediaFileAttributes_areClampedOrIgnoredWithAWarningWhenParsed() throws {
        let media = #"<MediaFile delivery="progressive" type="video/mp4" width="999999999999999999" height="-5" bitrate="99999999999" minBitrate="1e14">https://c/a.mp4</MediaFile>"#
        let document = try Fixture.parse(Fixture.inLine(mediaFiles: media))
        let file = try #require(document.ads.first?.inLine?.linearCreative?.linear?.mediaFiles.first)
        #expect(file.width == 100_000)
        #expect(file.height == nil)
        #expect(file.bitrate == 10_000_000)
        #expect(file.minBitrate == 10_000_000)
        let messages = document.warnings.filter { $0.kind == .invalidValue }.map(\.message)
        #expect(messages.contains { $0.contains("width") && $0.contains("clamped") })
        #expect(messages.contains { $0.contains("height") && $0.contains("negative") })
        _ = try MediaFileSelector.select(from: [file], criteria: .init(screenWidth: 640, screenHeight: 360))
    }

    @Test func forcedFile_byIdOrIndex_overridesEverything() throws {
        #expect(try MediaFileSelector.select(from: Self.files, criteria: .init(targetBitrateKbps: 100, forcedFile: "high-webm")).file.id == "high-webm")
        #expect(try MediaFileSelector.select(from: Self.files, criteria: .init(forcedFile: "4")).file.id == "mid")
        #expect(throws: VASTError.self) { try MediaFileSelector.select(from: Self.files, criteria: .init(forcedFile: "nope")) }
    }

    @Test func noPlayableFile_isError403() {
        do {
            // VPAID and Smooth Streaming (HLS and DASH play since issue 23).
            _ = try MediaFileSelector.select(from: [Self.files[1], MediaFile(delivery: "streaming", type: "application/vnd.ms-sstr+xml", url: "https://c/a.ism/Manifest")])
            Issue.record("expected 403")
        } catch {
            #expect(error.code == .noSupportedMediaFile)
        }
        #expect(throws: VASTError(.noSupportedMediaFile, "no MediaFile")) { try MediaFileSelector.select(from: []) }
    }

    @Test(arguments: [
        (AdcashQuality?.none, Double?.none, AdcashQuality.low),
        (.low, 2.0, .high), (.low, 2.01, .mid), (.low, 3.0, .mid), (.low, 3.01, .low),
        (.mid, 3.0, .high), (.mid, 3.01, .mid), (.mid, 5.0, .mid), (.mid, 5.01, .low),
        (.high, 4.99, .high), (.high, 5.0, .mid), (.high, 9.99, .mid), (.high, 10.0, .low),
        (.high, nil, .low),
    ] as [(AdcashQuality?, Double?, AdcashQuality)])
    func adcashTable5_stepsQualityExactlyAsTheSeedSays(_ last: AdcashQuality?, _ seconds: Double?, _ next: AdcashQuality) {
        #expect(AdcashQuality.next(after: last, downloadSeconds: seconds) == next)
    }

    @Test func adcashQualities_mapToLowestMiddleHighestPlayableBitrate() throws {
        let linear = try #require(try Fixture.parse(Fixture.adcashAppendixI).ads.first?.inLine?.linearCreative?.linear)
        let pick = { (q: AdcashQuality) in try MediaFileSelector.select(from: linear.mediaFiles, criteria: .init(adcashQuality: q)).file.url }
        #expect(try pick(.low) == "http://cdn.com/ban/lo.mp4")
        #expect(try pick(.mid) == "http://cdn.com/ban/me.mp4")
        #expect(try pick(.high) == "http://cdn.com/ban/hi.mp4")
    }
}

@Suite("Adcash rewarded extension")
struct RewardedExtensionTests {
    @Test func appendixITag_exposesTheTypedRewardedExtension() throws {
        let document = try Fixture.parse(Fixture.adcashAppendixI)
        let inLine = try #require(document.ads.first?.inLine)
        let reward = try #require(inLine.rewardedExtension)
        #expect(reward == RewardedExtension(isEnabled: true, currencyName: "Lives", amount: 12, amountText: "12.000000",
                                            currencyImageURL: "http://adserver.com/lives123.jpg",
                                            preRollMessage: true, postRollMessage: true))
        #expect(inLine.extensions.first?.name == "RewardedVideo")
        #expect(inLine.extensions.first?.rawXML.hasPrefix("<Extension name=\"RewardedVideo\">") == true)
        // The empty <Impression></Impression> is dropped with a warning; the macros are all known.
        #expect(inLine.impressions.isEmpty)
        #expect(!document.warnings.contains { $0.kind == .unknownMacro })
        #expect(inLine.linearCreative?.linear?.tracking.map(\.event) == [.start, .skip, .pause, .resume])
        #expect(inLine.creatives.first?.companionAds?.companions.first?.tracking.first?.event == .creativeView)
    }
}
