#!/usr/bin/env bash
# The whole benchmark suite, one table: decode and demux against the ffmpeg CLI, a virtual-clock session against its
# decode alone, real-time boundary lateness, beacons/s at the embedded sink (against wrk when installed), and a
# fleet of SESSIONS sessions with every beacon to the sink (against --decode-each), with peak RSS.
#
#   scripts/bench/all.sh [RUNS] [SESSIONS]     (defaults 5 and 10000)
#
# Builds vplay in release mode, the Swift runtime linked statically (.build-static/), as a shipped binary would be.
# Benchmarks are scripts, not tests: the test suite asserts exact times on the virtual clock and never measures speed.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-5}; sessions=${2:-10000}
command -v ffmpeg >/dev/null || { echo "bench: ffmpeg is missing (scripts/setup.sh installs it)" >&2; exit 1; }
echo "bench: building vplay (release)..." >&2
swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay
python3 scripts/bench/all.py "$vplay" "$runs" "$sessions"
