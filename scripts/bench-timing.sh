#!/usr/bin/env bash
# Real-time accuracy: plays the 10 s demo clip at --speed 1 (real time) several times and reports the wall time of
# each session and how late boundary events (quartiles, progress, skip offset, reward, close control) fired against
# their scheduled times, as the engine measured them (summary.lateness). Beacons are not sent (--dry-run), so only
# the playback loop is measured.
#
#   scripts/bench-timing.sh [RUNS]     (default 5)
#
# Targets (issue 4): each session ends within 10.0–10.2 s of wall time; p99 boundary lateness < 5 ms.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
echo "bench-timing: building vplay (release)..." >&2
swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay

python3 - "$vplay" "$runs" <<'PY'
import json, subprocess, sys, time, statistics
vplay, runs = sys.argv[1], int(sys.argv[2])
walls, late = [], []
for _ in range(runs):
    started = time.perf_counter()
    out = subprocess.run([vplay, "--vast", "media/demo.xml", "--speed", "1", "--dry-run", "--json"], capture_output=True, text=True, check=True).stdout
    walls.append(time.perf_counter() - started)
    summary = json.loads(out.strip().splitlines()[-1])
    events = [json.loads(l) for l in out.splitlines() if '"kind":"event"' in l]
    late.append(summary)
lat = [s["lateness"] for s in late]
print("| runs | wall time min / median / max | boundaries per run | p50 lateness (worst run) | p99 lateness (worst run) | max lateness | late frames |")
print("|---|---|---|---|---|---|---|")
print(f"| {runs} | {min(walls):.3f} / {statistics.median(walls):.3f} / {max(walls):.3f} s | {lat[0]['boundaries']} "
      f"| {max(l['p50'] for l in lat) * 1000:.3f} ms | {max(l['p99'] for l in lat) * 1000:.3f} ms | {max(l['max'] for l in lat) * 1000:.3f} ms "
      f"| {sum(s['frames']['late'] for s in late)} |")
PY
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs). Wall time includes process start and FFmpeg open."
