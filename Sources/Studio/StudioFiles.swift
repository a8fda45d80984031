import Foundation

/// The files a run of each kind writes in its folder, by download name. The page asks for these names only.
public enum StudioFiles {
    public static let run = ["report.json", "beacons.jsonl", "session.har", "junit.xml", "timeline.svg", "bundle.json", "lint.ndjson"]
    public static let fleet = ["fleet-report.json", "junit.xml", "progress.jsonl"]
    public static let audit = ["audit.json", "junit.xml", "timeline.svg"]
    /// Every run keeps its stderr and the request that started it.
    public static let always = ["stderr.txt", "request.json"]

    /// Where a run's stdout is kept: a session's JSON stream (`--json`, what the page watches); a fleet's or an
    /// audit's text (their reports are files: a fleet's `--json` report is some 20,000 lines, which the page would
    /// receive as as many events).
    public static func stdout(for kind: StudioRequest.Kind) -> String {
        kind == .run ? "stream.jsonl" : "stdout.txt"
    }

    public static func names(for kind: StudioRequest.Kind) -> [String] {
        switch kind {
        case .run: return run + [stdout(for: kind)] + always
        case .fleet: return fleet + [stdout(for: kind)] + always
        case .audit: return audit + [stdout(for: kind)] + always
        }
    }

    public static func contentType(of name: String) -> String {
        switch (name as NSString).pathExtension {
        case "json", "har": return "application/json"
        case "jsonl", "ndjson": return "application/x-ndjson"
        case "xml": return "application/xml"
        case "svg": return "image/svg+xml"
        default: return "text/plain; charset=utf-8"
        }
    }
}
