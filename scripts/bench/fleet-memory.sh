#!/usr/bin/env bash
# A fleet's memory to the embedded sink (issue 43, item 1): peak RSS must not grow with the beacons sent.
#   1. SESSIONS (default 1,000,000) sessions of the demo tag, every beacon to the embedded sink (--sink-all): peak RSS
#      (target < 256 MiB) and every beacon reconciled (sent = received, nothing unexpected);
#   2. 100,000 sessions, this build and BASE (a git revision, default the last one before the fleet reconciled hits
#      as they arrive, built in a worktree) side by side, alternating, three runs each: beacons/s (target: this build
#      at or above BASE's median) and peak RSS.
# Peak RSS is wait4()'s ru_maxrss of the vplay process. Prints Markdown rows for docs/benchmarks.md.
#
#   scripts/bench/fleet-memory.sh [SESSIONS] [BASE]     (defaults 1000000, 1dc49d3)
set -euo pipefail
cd "$(dirname "$0")/../.."
sessions=${1:-1000000}
base=${2:-1dc49d3}

echo "fleet-memory: building vplay (release)..." >&2
swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay

basedir=${TMPDIR:-/tmp}/vplay-bench-base-$base
if [ ! -x "$basedir/.build-static/release/vplay" ]; then
  echo "fleet-memory: building $base (release) in $basedir..." >&2
  [ -d "$basedir" ] || git worktree add --detach "$basedir" "$base" >/dev/null
  (cd "$basedir" && swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null)
fi
basevplay=$basedir/.build-static/release/vplay

python3 - "$vplay" "$basevplay" "$sessions" "$base" <<'PY'
import json, os, statistics, subprocess, sys, time
vplay, basevplay, sessions, base = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def run(binary, count):
    # Popen + wait4 for the child's own rusage.
    argv = [binary, "fleet", "--vast", "media/demo.xml", "--sessions", str(count), "--concurrency", "64", "--seed", "7",
            "--sink-all", "--json", "--quiet"]
    started = time.perf_counter()
    out_path = f"/tmp/fleet-memory-{os.getpid()}.json"
    with open(out_path, "wb") as out:
        child = subprocess.Popen(argv, stdout=out, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    err = child.stderr.read().decode(errors="replace"); child.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    report = json.load(open(out_path)); os.remove(out_path)
    if code not in (0, 1) or "population" not in report:
        sys.exit(f"fleet-memory: {' '.join(argv)} failed ({code}): {err.strip()}")
    beacons = report["population"]["beacons"]
    sent = sum(b["sent"] for b in beacons)
    return {"wall": wall, "rss": usage.ru_maxrss / 1024, "sent": sent, "expected": sum(b["expected"] for b in beacons),
            "received": sum(b.get("received") or 0 for b in beacons), "unexpected": report["population"].get("unexpected"),
            "perSecond": report["performance"]["beaconsPerSecond"], "code": code}

big = run(vplay, sessions)
reconciled = big["sent"] == big["received"] == big["expected"] and big["unexpected"] == 0
print(f"| fleet --sink-all, demo tag, {sessions:,} sessions: peak RSS | {big['rss']:.1f} MiB | target 256 MiB | {big['rss'] / 256:.2f} | < 256 MiB |")
print(f"| … beacons expected / sent / received / unexpected | {big['expected']:,} / {big['sent']:,} / {big['received']:,} / {big['unexpected']} | - | {'exact' if reconciled else 'NOT EXACT'} | every beacon reconciled |")
print(f"| … wall, beacons/s | {big['wall']:.1f} s, {big['perSecond']:,.0f}/s | - | - | - |")

ours, theirs = [], []
for _ in range(3):
    ours.append(run(vplay, 100_000))
    theirs.append(run(basevplay, 100_000))
def median(runs, key): return statistics.median(r[key] for r in runs)
o, t = median(ours, "perSecond"), median(theirs, "perSecond")
print(f"| fleet --sink-all, 100,000 sessions: beacons/s (median of 3, alternating) | {o:,.0f}/s ({min(r['perSecond'] for r in ours):,.0f}–{max(r['perSecond'] for r in ours):,.0f}) | {base}: {t:,.0f}/s ({min(r['perSecond'] for r in theirs):,.0f}–{max(r['perSecond'] for r in theirs):,.0f}) | {o / t:.2f} | ≥ 1.00 |")
print(f"| … peak RSS (median) | {median(ours, 'rss'):.1f} MiB | {base}: {median(theirs, 'rss'):.1f} MiB | {median(ours, 'rss') / median(theirs, 'rss'):.2f} | - |")
print(f"| … reconciled | {'exact' if all(r['sent'] == r['received'] and r['unexpected'] == 0 for r in ours) else 'NOT EXACT'} | {'exact' if all(r['sent'] == r['received'] and r['unexpected'] == 0 for r in theirs) else 'NOT EXACT'} | - | exact |")
PY
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); client and sink in one process."
