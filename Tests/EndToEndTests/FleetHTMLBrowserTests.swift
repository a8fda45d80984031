import Foundation
import Testing
import TestSupport

/// `fleet --html` in a real browser (issue 43, item 5): Tests/Browser/fleet_report_test.py runs a fleet of the demo to
/// the sink with --report and --html, opens the page in Debian's Chromium through Playwright for Python with the
/// browser offline and every request but the page's own file refused, and checks the report's numbers on it.
@Suite(.hangLimit) struct FleetHTMLBrowserTests {
    @Test func theHTMLReport_opensOffline_andShowsTheFleetsNumbers() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: StudioBrowserTests.chromium), "Chromium is missing: run scripts/setup.sh")
        try #require(FileManager.default.fileExists(atPath: StudioBrowserTests.playwright + "/playwright"), "Playwright for Python is missing: run scripts/setup.sh")
        let out = try TemporaryFolder()
        let script = Repo.root.appendingPathComponent("Tests/Browser/fleet_report_test.py").path
        let run = try await runProcess("/usr/bin/env", ["PYTHONPATH=\(StudioBrowserTests.playwright)", "python3", script, Repo.vplayBinary, out.url.path])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for line in lines where line.hasPrefix("FAIL") { Issue.record("\(line)") }
        #expect(run.status == 0 && lines.last == "10 passed, 0 failed", "\(run.stdout)\n\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.url.appendingPathComponent("fleet-report.png").path), "the screenshot")
    }

    /// `fleet --vmap --html` (issue 41): Tests/Browser/vmap_fleet_report_test.py runs a VMAP fleet to the sink, opens
    /// its page offline in Chromium and checks the schedule's reach and each break's counts against the report.
    @Test func aVMAPFleetsHTMLReport_showsTheScheduleAndEachBreak() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: StudioBrowserTests.chromium), "Chromium is missing: run scripts/setup.sh")
        try #require(FileManager.default.fileExists(atPath: StudioBrowserTests.playwright + "/playwright"), "Playwright for Python is missing: run scripts/setup.sh")
        let out = try TemporaryFolder()
        let script = Repo.root.appendingPathComponent("Tests/Browser/vmap_fleet_report_test.py").path
        let run = try await runProcess("/usr/bin/env", ["PYTHONPATH=\(StudioBrowserTests.playwright)", "python3", script, Repo.vplayBinary, out.url.path])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        for line in lines where line.hasPrefix("FAIL") { Issue.record("\(line)") }
        #expect(run.status == 0 && lines.last == "11 passed, 0 failed", "\(run.stdout)\n\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: out.url.appendingPathComponent("vmap-fleet-report.png").path), "the screenshot")
    }
}
