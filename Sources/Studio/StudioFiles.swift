import Foundation

/// The files a run of each kind writes in its folder, by download name. The page asks for these names only.
public enum StudioFiles {
    public static let run = ["report.json", "beacons.jsonl", "session.har", "junit.xml", "timeline.svg", "bundle.json", "lint.ndjson"]
    public static let fleet = ["fleet-report.json", "junit.xml", "progress.jsonl"]
    public static let audit = ["audit.json", "junit.xml", "timeline.svg"]
    /// Every run keeps its stdout (the JSON stream) and stderr.
    public static let always = ["stream.jsonl", "stderr.txt", "request.json"]

    public static func names(for kind: StudioRequest.Kind) -> [String] {
        switch kind {
        case .run: return run + always
        case .fleet: return fleet + always
        case .audit: return audit + always
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
