import AdSession
import Foundation
import Testing
import TestSupport
@testable import vplay

/// `--timeline`'s picture of a session played on the kit, drawn as `vplay --timeline` draws it: no label covers
/// another, the error has its own row above the beacons' heading, and a headline says how the session ended and how
/// many beacons failed. That the lanes follow the order beacons were sent to a real sink is `TimelineTests`.
@Suite struct TimelineBehaviourTests {
    let kit = SessionKit()

    /// The SVG `vplay arguments… --timeline` writes, for a session that ends with `exitCode`.
    func svg(_ arguments: [String], exitCode: Int32, on kit: SessionKit? = nil) async throws -> String {
        let run = try await (kit ?? self.kit).run(cli: arguments)
        var transcript = SessionTranscript()
        for record in run.records { transcript.add(record) }
        return TimelineSVG.render(transcript, summary: run.summary, title: "vplay: \(arguments[1])", exitCode: exitCode)
    }

    struct Text {
        var x, y, size: Double
        var anchorsEnd: Bool
        var content: String
        var box: LabelPlacer.Box { LabelPlacer.box(content, size: size, at: LabelPlacer.Spot(x: x, y: y, anchorsEnd: anchorsEnd)) }
    }

    /// Every `<text>` of the picture (its own text, without a nested tooltip).
    static func texts(_ svg: String) throws -> [Text] {
        let pattern = try NSRegularExpression(pattern: #"<text x="([-0-9.]+)" y="([-0-9.]+)"([^>]*)>([^<]*)"#)
        return pattern.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).compactMap { match in
            func group(_ i: Int) -> String { String(svg[Range(match.range(at: i), in: svg)!]) }
            let attributes = group(3)
            guard !attributes.contains("rotate(") else { return nil }  // the vertical axis title, not a label in the plot
            let size = attributes.range(of: #"font-size="([0-9.]+)""#, options: .regularExpression)
                .map { Double(attributes[$0].dropFirst(11).dropLast()) ?? 11 } ?? 11
            let content = group(4).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            return Text?(Text(x: Double(group(1))!, y: Double(group(2))!, size: size, anchorsEnd: attributes.contains(#"text-anchor="end""#), content: content))
        }
    }

    /// The demo tag with a progress tracker every half second (19 of them), in `folder` beside its clip.
    static func crowdedTag(in folder: TemporaryFolder) throws -> String {
        var tag = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
        let progress = (1..<20).map { i in
            String(format: #"<Tracking event="progress" offset="00:00:%02d.%03d"><![CDATA[http://127.0.0.1:8089/p?o=%d]]></Tracking>"#, i / 2, (i % 2) * 500, i)
        }.joined(separator: "\n")
        tag = tag.replacingOccurrences(of: #"<Tracking event="loaded">"#, with: progress + "\n" + #"<Tracking event="loaded">"#)
        try FileManager.default.copyItem(atPath: Repo.media("clip-10s-360p.mp4"), toPath: folder.url.appendingPathComponent("clip-10s-360p.mp4").path)
        return try folder.write("crowded.xml", tag)
    }

    @Test func labelsNeverOverlap_onAnAdWithManyProgressEvents() async throws {
        let folder = try TemporaryFolder()
        let tag = try Self.crowdedTag(in: folder)
        let svg = try await svg(["--vast", tag, "--dry-run", "--script", "pause@3,resume@4,mute@6", "--now", "0"], exitCode: 0)
        let texts = try Self.texts(svg)
        #expect(texts.filter { $0.content == "progress" }.count >= 10, "most progress events keep their label")
        for (i, a) in texts.enumerated() {
            for b in texts[(i + 1)...] where a.box.overlaps(b.box) {
                Issue.record("'\(a.content)' at (\(a.x), \(a.y)) overlaps '\(b.content)' at (\(b.x), \(b.y))")
            }
        }
        // A label left out is said, and every marker keeps its event in its tooltip.
        let markers = svg.components(separatedBy: "<circle").count - 1
        let labelled = texts.filter { $0.y > TimelineSVG.top && $0.y < TimelineSVG.top + TimelineSVG.plotHeight && !$0.content.hasPrefix("paused") }.count
        if labelled < markers { #expect(svg.contains("label(s) left out where they would overlap")) }
    }

    @Test func errorHasItsOwnRow_andTheHeadlineSaysTheEndingAndTheFailures() async throws {
        let folder = try TemporaryFolder()
        let tag = try folder.write("missing.xml", try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "clip-10s-360p.mp4", with: "no-such-clip-with-a-rather-long-name-to-make-the-error-message-long.mp4"))
        var kit = kit
        kit.answersByURL = [("/error", .status(500))]
        let texts = try Self.texts(try await svg(["--vast", tag], exitCode: 4, on: kit))
        let headline = try #require(texts.first { $0.y == 40 })
        #expect(headline.content.hasPrefix("mediaError (exit 4) · "), "\(headline.content)")
        #expect(headline.content.contains("1 failed") && headline.content.contains("error 401"), "\(headline.content)")
        let error = try #require(texts.first { $0.content.hasPrefix("error 401: ") })
        let heading = try #require(texts.first { $0.content.hasPrefix("beacons: one lane each") })
        #expect(!error.box.overlaps(heading.box), "the error text does not cover the beacons' heading")
        #expect(error.box.maxX <= TimelineSVG.width, "the error is cut to the picture's width")
    }
}
