#!/usr/bin/env python3
"""What watching a fleet in the studio costs (issue 40), measured side by side:

  1. throughput: the same fleet (N sessions of the demo tag to the embedded sink) run by `vplay fleet` from the
     command line and started from the studio's page with Chromium watching it live; each run's sessions/s is the
     fleet report's own `performance.sessionsPerSecond`. Runs alternate (CLI, studio, CLI, ...). Target: the studio's
     median >= 0.9 x the CLI's median.
  2. responsiveness of the page during the studio's runs: the longest gap between two updates of the live view
     (target <= 1 s) and the longest main-thread task the browser's Long Tasks API reports (target <= 200 ms).

    PYTHONPATH=.build-tools/playwright python3 scripts/bench-studio.py VPLAY [SESSIONS] [RUNS]

Prints one Markdown row per figure; docs/benchmarks.md keeps them. Run it on an idle machine (scripts/bench-studio.sh
builds vplay in release mode first).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from playwright.sync_api import sync_playwright

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VPLAY = os.path.abspath(sys.argv[1])
SESSIONS = int(sys.argv[2]) if len(sys.argv) > 2 else 10000
RUNS = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def cli_fleet(folder):
    report = os.path.join(folder, f"cli-{time.monotonic_ns()}.json")
    subprocess.run([VPLAY, "fleet", "--vast", "media/demo.xml", "--sessions", str(SESSIONS), "--sink", "--report", report, "--quiet"],
                   cwd=ROOT, check=True)
    with open(report) as file:
        return json.load(file)["performance"]["sessionsPerSecond"]


def studio_fleet(page, data):
    page.click("nav button[data-tab=fleet]")
    page.fill("#fleet-sessions", str(SESSIONS))
    page.select_option("#fleet-delivery", "sink")
    previous = page.inner_text("#fleet-id")
    page.evaluate("window.studioLongTasks = []")
    page.click("#fleet")
    page.wait_for_function(f"document.querySelector('#fleet-id').textContent !== {json.dumps(previous)}", timeout=600_000)
    # Polled once a second only: the page stamps each update of its live view itself.
    while "exit" not in page.inner_text("#fleet-status"):
        time.sleep(1)
    paints = page.evaluate("window.studioFleetPaints")
    gaps = [(b - a) / 1000 for a, b in zip(paints, paints[1:])]
    run = page.inner_text("#fleet-id")
    with open(os.path.join(data, "runs", run, "fleet-report.json")) as file:
        rate = json.load(file)["performance"]["sessionsPerSecond"]
    tasks = page.evaluate("window.studioLongTasks")
    return rate, max(gaps) if gaps else float("nan"), max(tasks) if tasks else 0.0


def main():
    data = tempfile.mkdtemp(prefix="vplay-bench-studio-")
    studio = subprocess.Popen([VPLAY, "studio", "--data", data, "--tag-folder", "media"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = studio.stdout.readline().strip()
    cli, watched, gaps, tasks = [], [], [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_context(viewport={"width": 1400, "height": 1000}, bypass_csp=True).new_page()
            page.goto(base)
            with open(os.path.join(ROOT, "media/demo.xml")) as tag:
                page.fill("#tag-xml", tag.read())
            cli_fleet(data)  # warm-up
            for _ in range(RUNS):
                cli.append(cli_fleet(data))
                rate, gap, task = studio_fleet(page, data)
                watched.append(rate)
                gaps.append(gap)
                tasks.append(task)
            browser.close()
    finally:
        studio.terminate()
        studio.wait()
    ratio = statistics.median(watched) / statistics.median(cli)
    print(f"| fleet of {SESSIONS:,} to the sink, studio watching × CLI (sessions/s, median of {RUNS}) | "
          f"{ratio:.2f} ({statistics.median(watched):.0f} / {statistics.median(cli):.0f}; studio runs {', '.join(f'{r:.0f}' for r in watched)}, CLI runs {', '.join(f'{r:.0f}' for r in cli)}) | ≥ 0.9 |")
    print(f"| live view during it: longest gap between updates | {max(gaps):.2f} s (runs {', '.join(f'{g:.2f}' for g in gaps)}) | ≤ 1 s |")
    print(f"| browser main thread during it: longest task | {max(tasks):.0f} ms (runs {', '.join(f'{t:.0f}' for t in tasks)}) | ≤ 200 ms |")


if __name__ == "__main__":
    main()
