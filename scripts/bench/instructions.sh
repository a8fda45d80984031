#!/usr/bin/env bash
# User-space instructions a beacon costs a fleet of the demo tag, counted by valgrind (callgrind): unlike CPU time on
# a shared 2-core machine, the count barely moves from run to run (the same binary gives the same figure within
# about one per cent, most often a few tenths; to a collector up to two, as sessions wait on answers), so a change
# of 2-3 % shows. Two fleets (SMALL and LARGE sessions) are counted and the
# difference is divided by the difference in beacons sent, which takes out what a fleet pays once (start-up, the
# decode of the clip, the report).
#
#   scripts/bench/instructions.sh [VPLAY] [-- FLEET ARGS...]
#
# VPLAY defaults to a release build made here. FLEET ARGS default to --dry-run (the sessions alone); pass
# --sink-all for every beacon through the pooled transport to the embedded sink (its server counted too), or
# --collector URL for a collector of your own (nginx: scripts/bench/throughput.sh starts one). SMALL and LARGE
# (environment) default to 300 and 1300 sessions; VAST to media/demo.xml. Installs valgrind when missing.
# Instructions are not time: memory traffic, atomics and the kernel are not in them. A change that cuts them is
# then checked on time by scripts/bench/throughput.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
vplay=""
if [ $# -gt 0 ] && [ "$1" != "--" ]; then vplay=$1; shift; fi
[ "${1:-}" = "--" ] && shift
args=("$@"); [ ${#args[@]} -eq 0 ] && args=(--dry-run)
small=${SMALL:-300}; large=${LARGE:-1300}; vast=${VAST:-media/demo.xml}

if ! command -v valgrind >/dev/null 2>&1; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "instructions: installing valgrind" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends valgrind >/dev/null
fi
if [ -z "$vplay" ]; then
  echo "instructions: building vplay (release)..." >&2
  swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
  vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 (Debian 12) cannot read the DWARF of Swift 6.3's binaries: count on a copy without it.
objcopy --strip-debug "$vplay" "$work/vplay"

count() {  # sessions -> "beacons instructions"
  valgrind --tool=callgrind --callgrind-out-file="$work/callgrind.$1" "$work/vplay" fleet --vast "$vast" --sessions "$1" \
      --concurrency 64 --seed 7 --json --quiet "${args[@]}" > "$work/report.$1" 2> "$work/valgrind.$1"
  local sent refs
  sent=$(python3 -c 'import json, sys; print(sum(r.get("sent", 0) for r in json.load(open(sys.argv[1]))["population"]["beacons"]))' "$work/report.$1")
  refs=$(awk '/I *refs:/ {gsub(",", "", $4); print $4}' "$work/valgrind.$1")
  echo "$sent $refs"
}
read -r small_beacons small_refs < <(count "$small")
read -r large_beacons large_refs < <(count "$large")
python3 - "$small_beacons" "$small_refs" "$large_beacons" "$large_refs" "$vast" "${args[*]}" <<'PY'
import sys
sb, sr, lb, lr = map(int, sys.argv[1:5])
print(f"{(lr - sr) / (lb - sb):,.0f} user instructions a beacon ({sys.argv[5]}, {sys.argv[6]}; {lb - sb:,} beacons between the two fleets)")
PY
