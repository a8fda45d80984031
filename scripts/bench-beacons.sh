#!/usr/bin/env bash
# Beacon throughput: one vplay process fires beacons through its own dispatcher and HTTP transport (the path every
# session uses) at `vplay sink`, another process, on loopback. Reports beacons/s and latency percentiles per run.
#
#   scripts/bench-beacons.sh [COUNT] [RUNS] [CONCURRENCY]    (defaults 20000, 3, 64)
#
# Target (issue 5): >= 5,000 beacons/s on this 2-core machine (seed 002's back-end served ~3,000 requests/s per
# node). Both processes share the 2 cores, so the figure is a floor for either side alone.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-20000}; runs=${2:-3}; concurrency=${3:-64}
echo "bench-beacons: building vplay (release)..." >&2
swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay

errors=$(mktemp)
"$vplay" sink --port 0 >/dev/null 2>"$errors" &
sink=$!
trap 'kill -INT $sink 2>/dev/null || true; rm -f "$errors"' EXIT
for _ in $(seq 100); do grep -q "listening" "$errors" && break; sleep 0.05; done
port=$(grep -o '127.0.0.1:[0-9]*' "$errors" | head -1 | cut -d: -f2)

echo "| run | beacons | failed | seconds | beacons/s | p50 latency | p99 latency | max latency |"
echo "|---|---|---|---|---|---|---|---|"
for run in $(seq "$runs"); do
  "$vplay" beacon-load --url "http://127.0.0.1:$port/bench?run=$run&cb=[CACHEBUSTING]" --count "$count" --concurrency "$concurrency" --json |
    python3 -c 'import json,sys; r=json.load(sys.stdin); run=sys.argv[1]; print("| %s | %d | %d | %.3f | %.0f | %.2f ms | %.2f ms | %.2f ms |" % (run, r["delivered"], r["failed"], r["wallTime"], r["perSecond"], r["p50"] * 1000, r["p99"] * 1000, r["max"] * 1000))' "$run"
done
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $concurrency requests in flight; client and sink on the same machine."
