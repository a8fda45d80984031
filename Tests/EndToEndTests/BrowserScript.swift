import Foundation
import Testing
import TestSupport

/// A Python script of Tests/Browser run against the binary in Debian's Chromium through Playwright for Python (both
/// installed by scripts/setup.sh): each check a `PASS`/`FAIL` line, the last `N passed, N failed`. Every `FAIL` line
/// is recorded as an issue of the calling test.
enum BrowserScript {
    static let chromium = "/usr/bin/chromium"
    static let playwright = Repo.root.appendingPathComponent(".build-tools/playwright").path

    /// Runs `Tests/Browser/<name>` with its outputs (screenshots, reports) in `out`: its exit status and lines.
    static func run(_ name: String, out: TemporaryFolder) async throws -> (status: Int32, lines: [String], output: String) {
        try #require(FileManager.default.isExecutableFile(atPath: chromium), "Chromium is missing: run scripts/setup.sh")
        try #require(FileManager.default.fileExists(atPath: playwright + "/playwright"), "Playwright for Python is missing: run scripts/setup.sh")
        let script = Repo.root.appendingPathComponent("Tests/Browser/\(name)").path
        let run = try await runProcess("/usr/bin/env", ["PYTHONPATH=\(playwright)", "python3", script, Repo.vplayBinary, out.url.path])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for line in lines where line.hasPrefix("FAIL") { Issue.record("\(line)") }
        return (run.status, lines, "\(run.stdout)\n\(run.stderr)")
    }
}
