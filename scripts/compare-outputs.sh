#!/usr/bin/env bash
# Compares two recordings of scripts/dry-run-outputs.sh, ignoring only what is measured rather than decided: hop
# times ("time": …, "(N ms)"), a fleet's performance block and per-second rates, and a JUnit file's timestamp,
# hostname and times (when and where it ran, measured).
set -euo pipefail
before=${1:?usage: compare-outputs.sh BEFORE AFTER}; after=${2:?usage: compare-outputs.sh BEFORE AFTER}
normalize() {
  sed -E 's/"time":[0-9.e-]+/"time":T/g; s/\([0-9]+ ms\)/(T ms)/g; s/"(beaconsPerSecond|decodeSeconds|decodeTime|peakRSSMiB|seconds|wallTime|sessionsPerSecond|p50|p90|p99|max|mean)" : [0-9.e+-]+/"\1" : N/g; s/[0-9.]+ (sessions|beacons)\/s/N \1\/s/g; s/in [0-9.]+ s/in N s/g; s/ (timestamp|hostname)="[^"]*"/ \1="X"/g; s/ time="[0-9.]+"/ time="T"/g' "$1"
}
status=0
for file in $(cd "$before" && ls); do
  if ! diff -q <(normalize "$before/$file") <(normalize "$after/$file") >/dev/null 2>&1; then
    echo "=== $file"; { diff <(normalize "$before/$file") <(normalize "$after/$file") | head -${LINES_PER_FILE:-20}; } || true; status=1
  fi
done
exit $status
