import AdSession
import Foundation
import Testing
import TestSupport

/// Issue 39: what only a player can check once the media is open — the MediaFile's declared size, bitrate, codec and
/// type against the file (the demo clip: an MP4, H.264 640x360 and AAC, 223 kb/s as FFmpeg measures it).
@Suite struct MediaDeclarationBehaviourTests {
    let kit = SessionKit()

    /// The demo tag with its MediaFile's attributes replaced, the media as an absolute path.
    static func tag(_ folder: TemporaryFolder, attributes: String) throws -> String {
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "file://" + Repo.media("clip-10s-360p.mp4"))
        let rewritten = text.replacingOccurrences(of: #"<MediaFile [^>]*>"#, with: "<MediaFile \(attributes)>", options: .regularExpression)
        #expect(rewritten != text)
        return try folder.write("tag.xml", rewritten)
    }

    func rules(_ attributes: String) async throws -> [String: String] {
        let folder = try TemporaryFolder()
        let inspection = try await kit.inspect(cli: ["inspect", "--vast", try Self.tag(folder, attributes: attributes)])
        #expect(inspection.errors.isEmpty, "\(inspection.errors)")
        return Dictionary(inspection.warnings.filter { $0.rule.hasSuffix("-declared") && $0.rule.hasPrefix("VPLAY-media-") }.map { ($0.rule, $0.message) },
                          uniquingKeysWith: { first, _ in first })
    }

    @Test func theDemosTrueAttributes_drawNothing() async throws {
        #expect(try await rules(#"id="a" delivery="progressive" type="video/mp4" width="640" height="360" bitrate="223" codec="avc1.64001e,mp4a.40.2""#).isEmpty)
        // Within the tolerance: the video's own 183 kbps, as ad servers often declare.
        #expect(try await rules(#"delivery="progressive" type="video/mp4; codecs=avc1" width="640" height="360" bitrate="183""#).isEmpty)
    }

    @Test func eachFalseAttribute_isItsRulesFinding_namingBothValues() async throws {
        let found = try await rules(#"delivery="progressive" type="video/webm" width="1280" height="720" bitrate="2000" codec="vp09.00.10.08""#)
        #expect(found["VPLAY-media-size-declared"] == "the MediaFile declares 1280x720; its video is 640x360")
        #expect(found["VPLAY-media-bitrate-declared"] == "the MediaFile declares 2000 kbps; the file averages 223 kbps")
        #expect(found["VPLAY-media-codec-declared"] == "the MediaFile declares codec vp09.00.10.08; the file's streams are h264, aac")
        #expect(found["VPLAY-media-type-declared"]?.hasPrefix("the MediaFile declares type video/webm; the file is an MP4") == true, "\(found)")
        let range = try await rules(#"delivery="progressive" type="video/mp4" width="640" height="360" minBitrate="800" maxBitrate="1200""#)
        #expect(range == ["VPLAY-media-bitrate-declared": "the MediaFile declares 800–1200 kbps; the file averages 223 kbps"])
    }
}
