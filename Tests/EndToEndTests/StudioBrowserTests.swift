import Foundation
import Testing
import TestSupport

/// `vplay studio` in a real browser: Tests/Browser/studio_test.py drives Debian's Chromium through Playwright for
/// Python (both installed by scripts/setup.sh) against the binary, and prints one line per check.
@Suite(.hangLimit) struct StudioBrowserTests {
    static let chromium = "/usr/bin/chromium"
    static let playwright = Repo.root.appendingPathComponent(".build-tools/playwright").path

    @Test func theStudio_inChromium_playsAuditsRunsAFleet_andKeepsItsHistory() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.chromium), "Chromium is missing: run scripts/setup.sh")
        try #require(FileManager.default.fileExists(atPath: Self.playwright + "/playwright"), "Playwright for Python is missing: run scripts/setup.sh")
        let shots = try TemporaryFolder()
        let script = Repo.root.appendingPathComponent("Tests/Browser/studio_test.py").path
        let run = try await runProcess("/usr/bin/env", ["PYTHONPATH=\(Self.playwright)", "python3", script, Repo.vplayBinary, shots.url.path])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for line in lines where line.hasPrefix("FAIL") { Issue.record("\(line)") }
        #expect(run.status == 0 && lines.last?.hasSuffix(" 0 failed") == true, "\(run.stdout)\n\(run.stderr)")
        #expect(lines.filter { $0.hasPrefix("PASS") }.count >= 41, "every check ran: \(run.stdout)")
        for name in ["play", "pod", "stall", "audit", "fleet", "history"] {
            #expect(FileManager.default.fileExists(atPath: shots.url.appendingPathComponent("studio-\(name).png").path), "the \(name) screenshot")
        }
    }
}
