import AdSession
import Primitives
import Foundation
import TestSupport
import Testing
@_spi(LiveParts) @testable import PlayerEngine

/// Every kind of bad media yields its own error with FFmpeg's message and the right VAST code — never a crash or hang.
@Suite struct MediaErrorTests {
    let folder: TemporaryFolder
    let clip: Data

    init() throws {
        folder = try TemporaryFolder()
        clip = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-10s-360p.mp4")))
    }

    func failure(_ location: String) -> MediaError? { decodeFailure(location) }

    func offset(of marker: String, in data: Data, occurrence: Int = 1) -> Int { byteOffset(of: marker, in: data, occurrence: occurrence) }

    /// Found by the `media` fuzz target: an MP4 whose damaged index puts a stream's data end before zero
    /// (-277.142 s). Describing it trapped (a negative count of zeros to pad the milliseconds with) and the process
    /// died; it is a truncated file (6 of the 150 samples its index lists).
    @Test func decode_fuzzedMP4WithANegativeStreamEnd_isTruncated405_notACrash() throws {
        let path = Repo.root.appendingPathComponent("Fuzz/corpus/media/negative-stream-end-crash.mp4").path
        let error = try #require(failure(path))
        guard case .truncated = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 405)
        #expect(error.description.contains("data ends at -277.142 s of 5.000 s"), "\(error)")
    }

    @Test(arguments: [
        (Duration.zero, "0.000"), (.milliseconds(42), "0.042"), (.milliseconds(-42), "-0.042"), (.milliseconds(-277_142), "-277.142"),
        (.milliseconds(12_345), "12.345"), (.seconds(Int64.max), "9.223372036854776e+18"), (.seconds(Int64.min), "-9.223372036854776e+18"),
    ])
    func millisecondText_isExactAndNeverTraps(_ duration: Duration, _ text: String) {
        #expect(duration.millisecondText == text)
    }

    @Test func open_missingFile_isNotFound401() throws {
        let error = try #require(failure(folder.url.appendingPathComponent("missing.mp4").path))
        guard case .notFound = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 401)
        #expect(error.description.contains("No such file or directory"))
    }

    @Test func open_unreachableURL_isUnreachable401() throws {
        // Port 1 on loopback: nothing listens there, the connection is refused at once.
        let error = try #require(failure("http://127.0.0.1:1/ad.mp4"))
        guard case .unreachable = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 401)
    }

    @Test func open_missingURLOnARealServer_isNotFound401() throws {
        let server = try ScriptedHTTPServer(files: folder.url.path)
        defer { server.stop() }
        let error = try #require(failure("http://127.0.0.1:\(server.port)/nothing-here.mp4"))
        guard case .notFound = error else { Issue.record("got \(error)"); return }
    }

    @Test(arguments: ["ftp://example.com/ad.mp4", "concat:a.mp4|b.mp4", "subfile:,,start,0,end,0,,:/etc/passwd", "data:video/mp4;base64,AAAA", "pipe:0"])
    func open_schemeOtherThanFileOrHTTP_isRefused403(_ location: String) throws {
        let error = try #require(failure(location))
        guard case .schemeNotAllowed = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 403)
    }

    /// Issue 37, item 21: a refused `file:` URL (remote content, a redirect) is said to be a local file not opened,
    /// not a scheme outside a list that names `file`; other schemes keep the list.
    @Test func schemeRefusals_sayWhatWasRefused() {
        #expect(MediaError.schemeNotAllowed(location: "file:///etc/passwd").description
            == "local file not opened (a file: URL is played only from a local tag or beside a local manifest, never from remote content or a redirect): file:///etc/passwd")
        #expect(MediaError.schemeNotAllowed(location: "gopher://x/y").description == "media URL scheme not allowed (file, http, https only): gopher://x/y")
    }

    @Test func open_emptyFile_isNotMedia405() throws {
        let error = try #require(failure(try folder.write("empty.mp4", Data())))
        guard case .notMedia = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 405)
    }

    @Test func open_randomBytes_isNotMedia405() throws {
        var random = SeededBytes(seed: 42)
        let garbage = Data((0..<200_000).map { _ in random.next() })
        let error = try #require(failure(try folder.write("garbage.mp4", garbage)))
        guard case .notMedia = error else { Issue.record("got \(error)"); return }
    }

    @Test func open_htmlPage_isNotMedia405() throws {
        let error = try #require(failure(try folder.write("page.mp4", Data("<html><body>Not found</body></html>".utf8))))
        guard case .notMedia = error else { Issue.record("got \(error)"); return }
    }

    @Test func open_fileCutInsideItsHeader_isTruncated405() throws {
        let error = try #require(failure(try folder.write("cut-header.mp4", clip.prefix(1000))))
        guard case let .truncated(_, detail) = error else { Issue.record("got \(error)"); return }
        #expect(detail.contains("header"))
        #expect(error.vastCode.rawValue == 405)
    }

    @Test func decode_fileCutAfterACompleteHeader_isTruncatedWithTheTimeItEnds() throws {
        let path = try folder.write("cut-60.mp4", clip.prefix(clip.count * 6 / 10))
        let source = try FFmpegMediaSource(location: path)
        var frames = 0
        var thrown: MediaError?
        do { while try source.nextFrame() != nil { frames += 1 } } catch { thrown = error }
        let error = try #require(thrown)
        guard case let .truncated(_, detail) = error else { Issue.record("got \(error)"); return }
        #expect(frames > 100, "the frames before the cut are still played")
        #expect(detail.contains("of 10.000 s"))
    }

    @Test func open_unknownVideoCodec_isUnsupported403() throws {
        // The second "avc1" is the sample entry in the moov's stsd box (the first is the ftyp brand).
        var data = try Data(contentsOf: URL(fileURLWithPath: Repo.media("clip-5s-video-only.mp4")))
        let at = offset(of: "avc1", in: data, occurrence: 2)
        data.replaceSubrange(at..<at + 4, with: Data("zzzz".utf8))
        let error = try #require(failure(try folder.write("unknown-codec.mp4", data)))
        guard case .unsupportedCodec = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 403)
    }

    @Test func open_audioAndVideoWithAnUnknownVideoCodec_isUnsupported403NotAudioOnly() async throws {
        // The a+v clip with its video sample entry renamed: the audio still decodes, but a video ad must not "play"
        // as its sound alone.
        var data = clip
        let at = offset(of: "avc1", in: data, occurrence: 2)
        data.replaceSubrange(at..<at + 4, with: Data("zzzz".utf8))
        let error = try #require(await decodeFailure(try folder.write("unknown-video-codec-with-audio.mp4", data)))
        guard case let .unsupportedCodec(location, codecs) = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 403)
        #expect(location.hasSuffix("unknown-video-codec-with-audio.mp4"))
        #expect(codecs == ["none (zzzz)"])
    }

    @Test func open_decoderThatRefusesItsStreamParameters_isDecoderFailed405WithTheLocation() async throws {
        // An audio-only MP4 whose AAC AudioSpecificConfig names object type 0: FFmpeg has an AAC decoder, but
        // avcodec_open2 refuses this configuration. The media is there and cannot be played: 405, not 403.
        let audio = folder.url.appendingPathComponent("audio.m4a").path
        try await runOffThePool("ffmpeg", ["-v", "error", "-y", "-i", Repo.media("clip-10s-360p.mp4"), "-vn", "-c", "copy", audio])
        var data = try Data(contentsOf: URL(fileURLWithPath: audio))
        // esds DecoderSpecificInfo: tag 5, a 4-byte length of 5, then the config (0x12 0x08 = AAC LC, 44.1 kHz, mono).
        let info = try #require(data.range(of: Data([0x05, 0x80, 0x80, 0x80, 0x05, 0x12, 0x08])))
        data[info.lowerBound + 5] = 0x00
        let path = try folder.write("bad-config.m4a", data)
        let error = try #require(await decodeFailure(path))
        guard case let .decoderFailed(location, codec, _) = error else { Issue.record("got \(error)"); return }
        #expect(error.vastCode.rawValue == 405)
        #expect(location == path)
        #expect(codec == "aac")
    }

    @Test func decode_someCorruptBytes_countsDecodeErrorsAndKeepsPlaying() throws {
        var data = clip
        var random = SeededBytes(seed: 7)
        let mdat = offset(of: "mdat", in: data)
        for index in stride(from: mdat + 5000, to: mdat + 25000, by: 7) { data[index] = random.next() }
        let source = try FFmpegMediaSource(location: try folder.write("some-corrupt.mp4", data))
        while try source.nextFrame() != nil {}
        #expect(source.statistics.decodeErrors > 0)
        #expect(source.statistics.frames > 300)
    }

    @Test func decode_everyPayloadByteCorrupt_isCorruptStream405() throws {
        var data = clip
        var random = SeededBytes(seed: 9)
        let mdat = offset(of: "mdat", in: data)
        for index in (mdat + 8)..<data.count { data[index] = random.next() }
        let error = try #require(failure(try folder.write("all-corrupt.mp4", data)))
        guard case let .corruptStream(_, errors, _) = error else { Issue.record("got \(error)"); return }
        #expect(errors > 0)
        #expect(error.vastCode.rawValue == 405)
    }

    @Test func open_directory_isNotFound() throws {
        let error = try #require(failure(folder.url.path))
        guard case .notFound = error else { Issue.record("got \(error)"); return }
    }
}
