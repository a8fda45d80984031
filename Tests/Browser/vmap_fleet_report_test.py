#!/usr/bin/env python3
"""A VMAP fleet's HTML report (`vplay fleet --vmap --html`) in a real browser, offline: Debian's Chromium through
Playwright.

Run by FleetHTMLBrowserTests (swift test); by hand:
    PYTHONPATH=.build-tools/playwright python3 Tests/Browser/vmap_fleet_report_test.py .build/debug/vplay OUT_DIR

Runs a fleet of the demo VMAP (a pre-roll, a mid-roll and a post-roll) to the embedded sink, a third of the viewers
leaving at 15 s, with --report and --html; opens the page in a browser context that is offline and refuses every
request that is not the page's own file, and checks that it shows the report's schedule and each break's numbers.
A screenshot goes to OUT_DIR/vmap-fleet-report.png. Every check prints one line; the last is `N passed, N failed`.
"""
import json
import os
import subprocess

from playwright.sync_api import sync_playwright

from page_check import OUT, ROOT, VPLAY, check, finish, open_offline

report_path, html_path = os.path.join(OUT, "vmap-fleet.json"), os.path.join(OUT, "vmap-fleet.html")
fleet = subprocess.run([VPLAY, "fleet", "--vmap", "media/vmap/demo.xml", "--sessions", "300", "--watch-mix", "end:2,15:1", "--seed", "5",
                        "--sink", "--beacon-timeout", "60", "--report", report_path, "--html", html_path, "--quiet"],
                       cwd=ROOT, capture_output=True, text=True)
check("the VMAP fleet ran, every break's counts agreeing (exit 0)", fleet.returncode == 0, f"exit {fleet.returncode}: {fleet.stderr}")
report = json.load(open(report_path))
breaks = report["breaks"]

with sync_playwright() as playwright:
    browser, page, outside = open_offline(playwright, html_path)
    check("the page names the fleet's viewers", page.inner_text("#viewers") == "300", page.inner_text("#viewers"))
    schedule = page.eval_on_selector_all("#schedule tr[data-break]", "rows => rows.map(r => [+r.dataset.break, +r.dataset.reach])")
    check("the schedule lists every break with the report's reach", schedule == [[b["number"], b["reach"]] for b in breaks],
          f"{schedule} against {[[b['number'], b['reach']] for b in breaks]}")
    articles = page.eval_on_selector_all("article.break", "as => as.map(a => a.id)")
    check("each break that ran has its own part", articles == [f"break-{b['number']}" for b in breaks if b.get("report")], articles)
    for item in breaks:
        number, rows = item["number"], item["report"]["population"]["beacons"]
        sent = sum(row["sent"] for row in rows)
        received = sum(row["received"] or 0 for row in rows)
        status = dict(page.eval_on_selector_all(f"#break-{number}-status g.barset", "gs => gs.map(g => [g.dataset.label, +g.dataset.value])"))
        check(f"break {number}: beacons sent and received as its report counts them", status.get("sent") == sent and status.get("received") == received,
              f"{status} against sent {sent}, received {received}")
        urls = page.eval_on_selector_all(f"#break-{number}-urls tr", "rows => rows.length")
        check(f"break {number}: every tracking URL has its row", urls == len(rows) + 1, f"{urls} rows for {len(rows)} URLs")
    check("the page asked for nothing but itself", not outside, outside)
    page.screenshot(path=os.path.join(OUT, "vmap-fleet-report.png"), full_page=True)
    browser.close()

finish()
