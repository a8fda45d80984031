#!/usr/bin/env bash
# File descriptors and threads across many sessions in one process (library use): runs SessionResourceTests with
# COUNT sessions per test (default 1000), once dry-run and once with every beacon sent over HTTP to the embedded sink,
# and prints the counts from /proc/self/fd and /proc/self/task before and after. The test suite runs a few hundred
# (SessionResourceTests' defaults), which a debug build does in about half a minute.
#
#   scripts/bench/sessions.sh [COUNT]
#
# A debug build: the counts do not depend on the optimisation level, and this is a bound, not a speed measurement.
set -euo pipefail
cd "$(dirname "$0")/../.."
count=${1:-1000}
VPLAY_MEASURE=1 VPLAY_SESSIONS=$count swift test --no-parallel --filter SessionResourceTests 2>&1 | grep -E '^measured:|✔|✘'
