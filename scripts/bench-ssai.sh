#!/usr/bin/env bash
# Server-side fleets (issue 42, item 4): the same fleet of SESSIONS viewers of the demo ad counted by the player and
# by vplay as the stitcher (`fleet --ssai compare`, 2 s segments, PREFETCH segments ahead), every beacon to the
# embedded sink on each side. Prints the comparison, the wall time and peak RSS, and exits non-zero unless both
# fleets sent what their oracles predict and their sinks received what they sent (with the device's X-Device-*
# fields on every server-side hit). A measurement, not a timed test: the numbers go to docs/benchmarks.md.
#
#   scripts/bench-ssai.sh [SESSIONS] [PREFETCH]      (default 10000 viewers, 2 segments ahead)
#
# vplay is built in release mode with the Swift runtime linked statically, as the other benchmarks build it; set
# VPLAY to use another binary (a debug build, say).
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=${1:-10000} prefetch=${2:-2}
if [ -z "${VPLAY:-}" ]; then
    echo "bench: building vplay (release)..." >&2
    swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
    VPLAY=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/time -f "bench: %e s wall, %M KiB peak RSS" "$VPLAY" fleet --vast media/demo.xml --sessions "$sessions" --seed 42 \
    --ssai compare --segment 2 --prefetch "$prefetch" --sink --report "$tmp/compare.json"
