#!/usr/bin/env bash
# The cost of a simulated network (issue 16): a virtual-clock session with --network wifi against the same session
# without one, side by side, RUNS alternating runs each (default 21), medians. Builds vplay in release mode as
# scripts/bench/all.sh does (its row 0 is this measure).
#
#   scripts/bench/network.sh [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-21}
echo "bench: building vplay (release)..." >&2
swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay
python3 scripts/bench/all.py "$vplay" "$runs" 0 network
