import Foundation
import Testing
import TestSupport

/// `fleet --html` in a real browser (issue 43, item 5): Tests/Browser/fleet_report_test.py runs a fleet of the demo to
/// the sink with --report and --html, opens the page in Debian's Chromium through Playwright for Python with the
/// browser offline and every request but the page's own file refused, and checks the report's numbers on it.
@Suite(.hangLimit) struct FleetHTMLBrowserTests {
    @Test func theHTMLReport_opensOffline_andShowsTheFleetsNumbers() async throws {
        let out = try TemporaryFolder()
        let run = try await BrowserScript.run("fleet_report_test.py", out: out)
        #expect(run.status == 0 && run.lines.last == "10 passed, 0 failed", "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: out.url.appendingPathComponent("fleet-report.png").path), "the screenshot")
    }

    /// `fleet --vmap --html` (issue 41): Tests/Browser/vmap_fleet_report_test.py runs a VMAP fleet to the sink, opens
    /// its page offline in Chromium and checks the schedule's reach and each break's counts against the report.
    @Test func aVMAPFleetsHTMLReport_showsTheScheduleAndEachBreak() async throws {
        let out = try TemporaryFolder()
        let run = try await BrowserScript.run("vmap_fleet_report_test.py", out: out)
        #expect(run.status == 0 && run.lines.last == "11 passed, 0 failed", "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: out.url.appendingPathComponent("vmap-fleet-report.png").path), "the screenshot")
    }
}
