#!/usr/bin/env bash
# The studio's benchmark (issue 40): a fleet watched live in Chromium against the same fleet from the command line,
# and the page's responsiveness meanwhile (scripts/bench-studio.py says how each figure is measured).
#
#   scripts/bench-studio.sh [SESSIONS] [RUNS]      (default 10000 sessions, 3 runs of each)
#
# vplay is built in release mode with the Swift runtime linked statically, as the other benchmarks build it.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "bench: building vplay (release)..." >&2
swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay
PYTHONPATH=.build-tools/playwright python3 scripts/bench-studio.py "$vplay" "${1:-10000}" "${2:-3}"
