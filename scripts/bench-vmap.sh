#!/usr/bin/env bash
# VMAP fleets (issue 41): a fleet of SESSIONS viewers over media/vmap/demo.xml (a pre-roll, a mid-roll and a post-roll,
# every viewer watching to the end unless WATCH_MIX says otherwise) against the same fleet on its pre-roll alone (the
# same document cut to its first break), side by side and alternating, every beacon to the embedded sink. Prints each
# run's wall time and the ratio of the medians (the target: at most 2).
#
#   scripts/bench-vmap.sh [SESSIONS] [RUNS] [WATCH_MIX]      (default 10000 viewers, 3 runs of each, end:1)
#
# vplay is built in release mode with the Swift runtime linked statically, as the other benchmarks build it.
set -euo pipefail
cd "$(dirname "$0")/.."
sessions=${1:-10000} runs=${2:-3} watch=${3:-end:1}
echo "bench: building vplay (release)..." >&2
swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The pre-roll alone: the demo's first AdBreak, nothing else changed (its inline ad's media resolves in media/vmap).
python3 - "$tmp/preroll.xml" <<'PY'
import re, sys
text = open("media/vmap/demo.xml").read()
breaks = re.findall(r"  <vmap:AdBreak .*?</vmap:AdBreak>\n", text, re.S)
assert len(breaks) == 3, len(breaks)
open(sys.argv[1], "w").write(text.replace("".join(breaks), breaks[0]))
PY
python3 - "$vplay" "$sessions" "$runs" "$watch" "$tmp/preroll.xml" <<'PY'
import statistics, subprocess, sys, time
vplay, sessions, runs, watch, preroll = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
def fleet(document):
    args = [vplay, "fleet", "--vmap", document, "--base", "media/vmap", "--sessions", sessions, "--sink", "--watch-mix", watch,
            "--seed", "7", "--quiet"]
    start = time.monotonic()
    done = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"bench: {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
    return seconds
times = {"preroll": [], "vmap": []}
for run in range(runs):
    for name, document in (("preroll", preroll), ("vmap", "media/vmap/demo.xml")):
        times[name].append(fleet(document))
        print(f"run {run + 1} {name:8} {times[name][-1]:.2f} s", flush=True)
pre, full = statistics.median(times["preroll"]), statistics.median(times["vmap"])
print(f"{sessions} viewers, watch mix {watch}: pre-roll alone {pre:.2f} s, pre + mid + post {full:.2f} s (medians of {runs}): "
      f"{full / pre:.2f}x (target at most 2x)")
PY
