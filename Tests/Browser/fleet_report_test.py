#!/usr/bin/env python3
"""A fleet's HTML report (`vplay fleet --html`) in a real browser, offline: Debian's Chromium through Playwright.

Run by FleetHTMLBrowserTests (swift test); by hand:
    PYTHONPATH=.build-tools/playwright python3 Tests/Browser/fleet_report_test.py .build/debug/vplay OUT_DIR

Runs a fleet of the demo to the embedded sink with two thresholds (one holds, one fails) and --report and --html,
opens the page in a browser context that is offline and refuses every request that is not the page's own file, and
checks that it shows the report's numbers. A screenshot goes to OUT_DIR/fleet-report.png. Every check prints one
line; the last is `N passed, N failed`.
"""
import json
import os
import subprocess

from playwright.sync_api import sync_playwright

from page_check import OUT, ROOT, VPLAY, check, finish, open_offline

report_path, html_path = os.path.join(OUT, "fleet.json"), os.path.join(OUT, "fleet.html")
fleet = subprocess.run([VPLAY, "fleet", "--vast", "media/demo.xml", "--sessions", "2000", "--seed", "5", "--sink", "--beacon-timeout", "60",
                        "--threshold", "received/sent>=0.999", "--threshold", "latency.max<1ms", "--report", report_path, "--html", html_path,
                        "--quiet"], cwd=ROOT, capture_output=True, text=True)
check("the fleet ran, its latency threshold failing (exit 99)", fleet.returncode == 99, f"exit {fleet.returncode}: {fleet.stderr}")
report = json.load(open(report_path))
population = report["population"]
sent = sum(b["sent"] for b in population["beacons"])
received = sum(b["received"] or 0 for b in population["beacons"])

with sync_playwright() as playwright:
    browser, page, outside = open_offline(playwright, html_path)
    check("the page names the fleet's sessions", page.inner_text("#sessions") == "2,000", page.inner_text("#sessions"))
    reach = dict(page.eval_on_selector_all("#reach g.barset", "gs => gs.map(g => [g.dataset.label, +g.dataset.value])"))
    check("the reach chart has the six milestones", list(reach) == ["impr.", "start", "Q1", "mid", "Q3", "compl."], reach)
    check("reach: impressions and completes as the report counts them",
          reach.get("impr.") == population["events"].get("impression") and reach.get("compl.") == population["events"].get("complete"), reach)
    status = dict(page.eval_on_selector_all("#status g.barset", "gs => gs.map(g => [g.dataset.label, +g.dataset.value])"))
    check("beacons by status: sent and received as the report counts them", status.get("sent") == sent and status.get("received") == received,
          f"{status} against sent {sent}, received {received}")
    p99 = page.inner_text("#latency td[data-name=p99]")
    check("the latency table gives the report's p99", p99 == "%.1f ms" % (report["performance"]["beaconLatency"]["p99"] * 1000), p99)
    lines = page.eval_on_selector_all("#latency-over-time polyline", "ls => ls.map(l => [l.dataset.name, l.getAttribute('points').split(' ').length])")
    check("latency over time: p50, p90 and p99 drawn", [name for name, _ in lines] == ["p50", "p90", "p99"] and all(n >= 1 for _, n in lines), lines)
    verdicts = page.eval_on_selector_all("#checks tr.threshold", "rows => rows.map(r => r.dataset.passed)")
    check("both thresholds are listed, one held and one failed", verdicts == ["true", "false"], verdicts)
    rows = page.eval_on_selector_all("#urls tr", "rows => rows.length")
    check("every tracking URL has its row", rows == len(population["beacons"]) + 1, f"{rows} rows for {len(population['beacons'])} URLs")
    check("the page asked for nothing but itself", not outside, outside)
    page.screenshot(path=os.path.join(OUT, "fleet-report.png"), full_page=True)
    browser.close()

finish()
