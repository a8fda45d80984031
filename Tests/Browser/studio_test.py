#!/usr/bin/env python3
"""vplay studio in a real browser: Debian's Chromium driven by Playwright for Python.

Run by StudioBrowserTests (swift test), which builds vplay; by hand:
    PYTHONPATH=.build-tools/playwright python3 Tests/Browser/studio_test.py .build/debug/vplay OUT_DIR

It starts `vplay studio` itself (a fresh data folder, media/ as the tag folder) and `vplay sink --media media` (a tag
served over HTTP for the pod), then plays what a QA engineer would and checks what each screen shows. Screenshots go
to OUT_DIR. Every check prints one line; the last line is `N passed, N failed`. Waits are readiness waits with long
limits: nothing here asserts how fast the machine is, except the responsiveness figures, whose margins are ten times
the targets (the targets themselves are measured on an idle machine by scripts/bench-studio.sh).
"""
import http.client
import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.parse

import jsonschema
from playwright.sync_api import sync_playwright

from page_check import CHROMIUM, OUT, ROOT, VPLAY, check, results

LIMIT_MS = 600_000  # readiness waits: a run on a loaded machine can take minutes


def start(arguments, marker):
    """Starts a vplay child; returns it and the first stdout line (studio) or the stderr line holding `marker`."""
    process = subprocess.Popen([VPLAY] + arguments, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stream = process.stdout if marker is None else process.stderr
    while True:
        line = stream.readline()
        if not line:
            raise SystemExit(f"{arguments[0]} did not start: {process.stderr.read() if stream is process.stdout else ''}")
        if marker is None or marker in line:
            return process, line.strip()


def raw_request(base, method, path, headers, body=None):
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    connection.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    for name, value in headers.items():
        connection.putheader(name, value)
    if body is not None:
        connection.putheader("Content-Length", str(len(body)))
    connection.endheaders(body)
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, text


def security(base, token):
    host = urllib.parse.urlsplit(base).netloc
    body = json.dumps({"kind": "run", "tag": {"xml": "<VAST version=\"4.1\"/>"}, "options": {"delivery": "dry-run"}}).encode()
    status, text = raw_request(base, "GET", "/", {"Host": "attacker.example:" + host.split(":")[1]})
    check("a foreign Host (DNS rebinding) is refused", status == 403 and "Host" in text, f"{status} {text}")
    status, text = raw_request(base, "POST", "/api/runs", {"Host": host, "Origin": "http://attacker.example", "X-Studio-Token": token,
                                                          "Content-Type": "application/json"}, body)
    check("a foreign Origin is refused", status == 403 and "Origin" in text, f"{status} {text}")
    status, text = raw_request(base, "POST", "/api/runs", {"Host": host, "Content-Type": "application/json"}, body)
    check("a run without the token is refused", status == 403 and "token" in text, f"{status} {text}")
    status, text = raw_request(base, "POST", "/api/runs", {"Host": host, "X-Studio-Token": "0" * 64, "Content-Type": "application/json"}, body)
    check("a run with a wrong token is refused", status == 403, f"{status} {text}")
    status, text = raw_request(base, "GET", "/api/runs", {"Host": host})
    check("the studio's own Host reads the history", status == 200 and text.startswith("["), f"{status} {text}")
    url = urllib.parse.urlsplit(base)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    connection.request("GET", "/")
    policy = connection.getresponse().getheader("Content-Security-Policy") or ""
    connection.close()
    check("the page is served with a Content-Security-Policy of its own origin only", "script-src 'self'" in policy and "connect-src 'self'" in policy, policy)


def run_and_wait(page, button, view):
    """Clicks `button` and waits for the run it starts (a new id in `#VIEW-id`) to end; returns its status line."""
    previous = page.inner_text(f"#{view}-id") if page.locator(f"#{view}-id").is_visible() else ""
    page.click(button)
    page.wait_for_function(f"(() => {{ const id = document.querySelector('#{view}-id').textContent; "
                           f"return id !== {json.dumps(previous)} && id !== '–' && document.querySelector('#{view}-status').textContent.includes('exit'); }})()",
                           timeout=LIMIT_MS)
    return page.inner_text(f"#{view}-status")


def paste(page, path):
    page.fill("#tag-url", "")
    with open(os.path.join(ROOT, path)) as tag:
        page.fill("#tag-xml", tag.read())


def quartiles(page):
    return page.eval_on_selector_all("#timeline g.quartile", "gs => gs.map(g => [g.dataset.event, g.dataset.playhead])")


def download(page, run_selector, name, folder):
    with page.expect_download(timeout=LIMIT_MS) as info:
        page.click(f"{run_selector} a[data-file='{name}']")
    path = os.path.join(folder, name)
    info.value.save_as(path)
    return path


def main():
    os.makedirs(OUT, exist_ok=True)
    data = tempfile.mkdtemp(prefix="vplay-studio-test-")
    downloads = tempfile.mkdtemp(prefix="vplay-studio-downloads-")
    studio, base = start(["studio", "--data", data, "--tag-folder", "media"], None)
    sink, line = start(["sink", "--port", "0", "--media", "media"], "listening on")
    media_base = line.split("listening on ")[1].split()[0]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            # Playwright evaluates its waits as strings, which the page's Content-Security-Policy (script-src 'self')
            # forbids: the test context bypasses it, and `security` checks that the studio sends it.
            context = browser.new_context(viewport={"width": 1400, "height": 1000}, accept_downloads=True, bypass_csp=True)
            page = context.new_page()
            page.on("pageerror", lambda error: check("no script error on the page", False, str(error)))
            outside = []
            page.on("request", lambda request: outside.append(request.url) if not request.url.startswith(base) else None)
            page.goto(base)
            token = page.get_attribute('meta[name="studio-token"]', "content")
            security(base, token)

            # 1. The demo, pasted, to the embedded sink.
            paste(page, "media/demo.xml")
            page.check("input[name=delivery][value=sink]")
            status = run_and_wait(page, "#play", "run")
            check("the demo plays to its end (exit 0)", "done · exit 0" in status, status)
            page.wait_for_function("document.querySelectorAll('#beacons tbody tr').length === 12", timeout=LIMIT_MS)
            delivered, matched = page.inner_text("#beacons-delivered"), page.inner_text("#beacons-matched")
            check("12 beacons delivered and 12 matched by the sink", (delivered, matched) == ("12", "12"), f"{delivered} delivered, {matched} matched")
            cells = page.eval_on_selector_all("#beacons tbody td.sink", "cells => cells.map(c => c.textContent)")
            check("every row of the table is matched", cells == ["matched"] * 12, cells)
            marks = dict(quartiles(page))
            check("the quartiles on the timeline at 2.5, 5, 7.5 and 10 s",
                  [marks.get(n) for n in ["firstQuartile", "midpoint", "thirdQuartile", "complete"]] == ["2.500", "5.000", "7.500", "10.000"], marks)
            reward = page.inner_text("#reward-state")
            check("the reward is granted", reward.startswith("granted: 10 Coins at 10.000 s"), reward)
            page.wait_for_selector("#chain li[data-depth='0']", timeout=LIMIT_MS)
            check("the chain shows the tag", "VAST, 1 ad(s)" in page.inner_text("#chain"), page.inner_text("#chain"))
            check("the media choice says why", "highest bitrate" in page.inner_text("#media"), page.inner_text("#media"))
            check("findings list lint's rule IDs or says there are none",
                  page.locator("#findings li.finding").count() > 0 or "no findings" in page.inner_text("#findings"), page.inner_text("#findings"))
            page.screenshot(path=os.path.join(OUT, "studio-play.png"), full_page=True)
            har = download(page, "#downloads", "session.har", downloads)
            with open(os.path.join(ROOT, "schemas/har-1.2.schema.json")) as schema, open(har) as archive:
                document = json.load(archive)
                try:
                    jsonschema.validate(document, json.load(schema))
                    valid = ""
                except jsonschema.ValidationError as error:
                    valid = error.message
            check("the HAR downloaded validates against schemas/har-1.2.schema.json", valid == "" and len(document["log"]["entries"]) == 12, valid)

            # 2. A run bundle replays byte for byte through the CLI.
            page.check("input[name=delivery][value=dry-run]")
            page.fill("#seed", "7")
            page.fill("#now", "2026-01-01T00:00:00Z")
            status = run_and_wait(page, "#play", "run")
            check("a dry run ends (exit 0)", "exit 0" in status, status)
            names = ["bundle.json", "report.json", "beacons.jsonl", "session.har", "timeline.svg"]
            studio_files = {name: download(page, "#downloads", name, os.path.join(downloads, "studio")) for name in names}
            replayed = os.path.join(downloads, "replayed")
            os.makedirs(replayed, exist_ok=True)
            outputs = {"report.json": "--report", "beacons.jsonl": "--beacons", "session.har": "--har", "timeline.svg": "--timeline", "bundle.json": "--bundle"}
            arguments = [VPLAY, "--replay", studio_files["bundle.json"]]
            for name, option in outputs.items():
                arguments += [option, os.path.join(replayed, name)]
            replay = subprocess.run(arguments, cwd=ROOT, capture_output=True, text=True)
            check("vplay --replay BUNDLE plays it (exit 0)", replay.returncode == 0, replay.stderr)
            for name in names:
                with open(studio_files[name], "rb") as a, open(os.path.join(replayed, name), "rb") as b:
                    check(f"the replay's {name} is byte-identical to the studio's", a.read() == b.read())
            page.fill("#seed", "")
            page.fill("#now", "")

            # 3. A pod, from a tag URL.
            page.fill("#tag-xml", "")
            page.fill("#tag-url", media_base + "/media/pods/pod.xml")
            page.check("input[name=delivery][value=dry-run]")
            status = run_and_wait(page, "#play", "run")
            check("the pod plays from its URL", "exit 0" in status, status + page.inner_text("#log"))
            boundaries = page.locator("#timeline line[data-pod='boundary']").count()
            check("the timeline marks the pod's ad boundaries", boundaries >= 1, boundaries)
            completes = [m for m in quartiles(page) if m[0] == "complete"]
            check("each ad of the pod completes on the timeline", len(completes) >= 2, completes)
            page.screenshot(path=os.path.join(OUT, "studio-pod.png"), full_page=True)

            # 4. A network that stalls.
            page.fill("#tag-url", "")
            paste(page, "media/demo.xml")
            page.evaluate("document.querySelector('#trace').closest('details').open = true")
            page.fill("#trace", '[{"at": 0, "kbps": 2000}, {"at": 0.3, "kbps": 0}, {"at": 3, "kbps": 2000}]')
            page.check("input[name=delivery][value=sink]")
            page.fill("#reward-callback", "http://127.0.0.1:8089/ssv")
            status = run_and_wait(page, "#play", "run")
            stalls = page.locator("#timeline rect.stall").count()
            check("a network trace with a gap shows a stall on the timeline", stalls >= 1, f"{status}, {stalls} stalls")
            callback = page.inner_text("#reward-state")
            check("the signed reward callback is sent and answered", "signed callback: HTTP 200" in callback, callback)
            page.fill("#reward-callback", "")
            page.screenshot(path=os.path.join(OUT, "studio-stall.png"), full_page=True)
            page.fill("#trace", "")

            # 5. An audit of a capture: the HAR of the first run.
            page.click("nav button[data-tab=audit]")
            paste(page, "media/demo.xml")
            page.set_input_files("#capture-file", har)
            status = run_and_wait(page, "#audit", "audit")
            page.wait_for_selector("#audit-findings tbody tr", timeout=LIMIT_MS)
            headline = page.inner_text("#audit-headline")
            check("the audit matches the capture's 12 requests", "12 of 12 requests matched" in headline, headline)
            verdicts = page.eval_on_selector_all("#audit-trackers tbody tr", "rows => rows.map(r => r.dataset.verdict)")
            check("the audit shows a verdict per tracker", len(verdicts) >= 12 and "ok" in verdicts, verdicts)
            page.screenshot(path=os.path.join(OUT, "studio-audit.png"), full_page=True)

            # 6. A fleet of 10,000 sessions, watched live. A dry run: the suite runs beside this test on 2 cores, and
            # 120,000 beacons to the sink would load them for a minute (scripts/bench-studio.sh measures that fleet).
            page.click("nav button[data-tab=fleet]")
            page.fill("#fleet-sessions", "10000")
            page.select_option("#fleet-delivery", "dry-run")
            page.evaluate("window.studioLongTasks = []")
            page.click("#fleet")
            page.wait_for_selector("#fleet-status-chart g.barset[data-label=answered]", timeout=LIMIT_MS)
            live = page.eval_on_selector_all("#fleet-reach g.barset", "gs => gs.map(g => +g.dataset.value)")
            check("the reach and the beacons are charted while the fleet runs", len(live) == 6, live)
            page.wait_for_function("document.querySelector('#fleet-status').textContent.includes('exit')", timeout=LIMIT_MS)
            status = page.inner_text("#fleet-status")
            check("the fleet of 10,000 ends (exit 0)", "exit 0" in status, status + page.inner_text("#fleet-counts"))
            # The final charts are drawn from the report once it is fetched: wait for the page to say so.
            page.wait_for_selector("#fleet-view[data-final]", timeout=LIMIT_MS)
            final = page.get_attribute("#fleet-view", "data-final")
            check("the final charts are drawn from the fleet's report", final == "drawn", final)
            reach = page.eval_on_selector_all("#fleet-reach g.barset", "gs => gs.map(g => [g.dataset.label, +g.dataset.value])")
            check("the reach chart counts 10,000 impressions", dict(reach).get("impr.") == 10000, reach)
            check("the status and latency charts are drawn", page.locator("#fleet-status-chart g.barset").count() == 4 and page.locator("#fleet-latency g.barset").count() == 4)
            # The page stamps each update of its live view itself (no polling from here to disturb it).
            paints = page.evaluate("window.studioFleetPaints")
            gaps = [(b - a) / 1000 for a, b in zip(paints, paints[1:])]
            longest_gap = max(gaps) if gaps else 0
            long_tasks = page.evaluate("window.studioLongTasks")
            longest_task = max(long_tasks) if long_tasks else 0
            print(f"MEASURED fleet live view: {len(gaps)} updates, longest gap {longest_gap:.2f} s; main thread: {len(long_tasks)} long tasks, longest {longest_task:.0f} ms", flush=True)
            check("the live view kept updating (gap under 10 s: ten times the 1 s target)", len(gaps) >= 2 and longest_gap < 10, f"{len(gaps)} updates, gap {longest_gap:.2f} s")
            check("the main thread was never blocked 2 s (ten times the 200 ms target)", longest_task < 2000, f"{longest_task} ms")
            page.screenshot(path=os.path.join(OUT, "studio-fleet.png"), full_page=True)

            # 7. History: listed, compared, reopened, deleted.
            page.click("nav button[data-tab=history]")
            page.wait_for_selector("#history tbody tr", timeout=LIMIT_MS)
            rows = page.locator("#history tbody tr").count()
            check("the history lists the 6 runs", rows == 6, rows)
            boxes = page.locator("#history tbody input[type=checkbox]")
            boxes.nth(rows - 1).check()
            boxes.nth(rows - 2).check()
            page.click("#compare")
            check("two runs compare side by side", page.locator("#comparison-table tbody tr").count() > 5)
            page.screenshot(path=os.path.join(OUT, "studio-history.png"), full_page=True)
            page.locator("#history tbody tr").nth(rows - 1).locator("button", has_text="Open").click()
            page.wait_for_function("document.querySelector('#run-status').textContent.includes('exit')", timeout=LIMIT_MS)
            check("a run reopened from the history shows its 12 beacons", page.locator("#beacons tbody tr").count() == 12)
            page.click("nav button[data-tab=history]")
            page.wait_for_selector("#history tbody tr", timeout=LIMIT_MS)
            page.locator("#history tbody tr").first.locator("button", has_text="Delete").click()
            page.wait_for_function(f"document.querySelectorAll('#history tbody tr').length === {rows - 1}", timeout=LIMIT_MS)
            check("a deleted run leaves the history and its folder", len(os.listdir(os.path.join(data, "runs"))) == rows - 1)
            check("the page fetched nothing from outside the studio", outside == [], outside[:3])

            # 8. A new launch on the same data folder reads the history back from its database and folders.
            studio.terminate()
            studio.wait(timeout=60)
            studio, base = start(["studio", "--data", data, "--tag-folder", "media"], None)
            page.goto(base)
            page.click("nav button[data-tab=history]")
            page.wait_for_selector("#history tbody tr", timeout=LIMIT_MS)
            check("the next launch lists the runs kept", page.locator("#history tbody tr").count() == rows - 1)
            page.locator("#history tbody tr").last.locator("button", has_text="Open").click()
            page.wait_for_function("document.querySelector('#run-status').textContent.includes('exit')", timeout=LIMIT_MS)
            check("a run of an earlier launch reopens with its 12 beacons, matched", page.locator("#beacons tbody tr").count() == 12
                  and page.inner_text("#beacons-matched") == "12", page.inner_text("#beacon-summary"))
            browser.close()
    finally:
        for process in (studio, sink):
            process.terminate()
            process.wait(timeout=60)
    passed, failed = results.count(True), results.count(False)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
