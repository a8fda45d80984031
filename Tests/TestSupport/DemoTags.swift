import Foundation

/// Variants of the bundled demo tag (`media/demo.xml`) that more than one test target plays, its media made absolute
/// so the tag can live in a temporary folder.
public enum DemoTags {
    /// Landing pages that carry macros: the video's ClickThrough `[ADPLAYHEAD]` and `[CACHEBUSTING]`, the end card's
    /// `[ADPLAYHEAD]`.
    public static func landingPagesWithMacros(in folder: TemporaryFolder) throws -> String {
        let text = try String(contentsOfFile: Repo.media("demo.xml"), encoding: .utf8)
            .replacingOccurrences(of: "https://example.com/landing?src=vplay-demo]]", with: "https://example.com/landing?src=video&at=[ADPLAYHEAD]&cb=[CACHEBUSTING]]]")
            .replacingOccurrences(of: "https://example.com/landing?src=vplay-demo-endcard", with: "https://example.com/landing?src=endcard&at=[ADPLAYHEAD]")
            .replacingOccurrences(of: "<![CDATA[clip-10s-360p.mp4]]>", with: "<![CDATA[\(Repo.media("clip-10s-360p.mp4"))]]>")
        return try folder.write("clicks.xml", text)
    }
}
