"""What the browser tests share (fleet_report_test.py, vmap_fleet_report_test.py, studio_test.py): the command line (the vplay binary,
a folder for outputs), one printed line per check, and a page opened in Debian's Chromium through Playwright in a
browser context that is offline and refuses every request but the page's own file.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VPLAY = os.path.abspath(sys.argv[1])
OUT = os.path.abspath(sys.argv[2])
CHROMIUM = os.environ.get("VPLAY_CHROMIUM", "/usr/bin/chromium")
results = []


def check(name, condition, detail=""):
    """Prints `PASS name` or `FAIL name: detail`, and counts it."""
    results.append(bool(condition))
    print(("PASS " if condition else "FAIL ") + name + ("" if condition else f": {detail}"), flush=True)
    return condition


def open_offline(playwright, path):
    """The browser and the page at `path`, offline; `outside` collects every request refused (none is expected)."""
    browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
    context = browser.new_context(offline=True, viewport={"width": 1200, "height": 900})
    outside = []

    def route(request_route):
        if request_route.request.url.startswith("file://"):
            request_route.continue_()
        else:
            outside.append(request_route.request.url)
            request_route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.goto("file://" + path)
    return browser, page, outside


def finish():
    """The last line, `N passed, N failed`, and the exit status."""
    print(f"{sum(results)} passed, {len(results) - sum(results)} failed", flush=True)
    sys.exit(0 if all(results) else 1)
