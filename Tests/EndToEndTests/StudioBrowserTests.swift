import Foundation
import Testing
import TestSupport

/// `vplay studio` in a real browser: Tests/Browser/studio_test.py drives Debian's Chromium through Playwright for
/// Python (both installed by scripts/setup.sh) against the binary, and prints one line per check.
@Suite(.hangLimit) struct StudioBrowserTests {
    @Test func theStudio_inChromium_playsAuditsRunsAFleet_andKeepsItsHistory() async throws {
        let shots = try TemporaryFolder()
        let (status, lines, output) = try await BrowserScript.run("studio_test.py", out: shots)
        #expect(status == 0 && lines.last?.hasSuffix(" 0 failed") == true, "\(output)")
        #expect(lines.filter { $0.hasPrefix("PASS") }.count >= 41, "every check ran: \(output)")
        for name in ["play", "pod", "stall", "audit", "fleet", "history"] {
            #expect(FileManager.default.fileExists(atPath: shots.url.appendingPathComponent("studio-\(name).png").path), "the \(name) screenshot")
        }
    }
}
