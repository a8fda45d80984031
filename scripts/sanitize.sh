#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer, each in its own build folder so the normal .build stays as it is.
#
#   scripts/sanitize.sh            # address, then thread
#   scripts/sanitize.sh address    # AddressSanitizer (+ LeakSanitizer): use-after-free, overflows, leaks
#   scripts/sanitize.sh thread     # ThreadSanitizer: data races
#
# Each is a full debug build of the package and its dependencies with the sanitizer (15–20 min on 2 cores) plus a
# slower test run, so it is not part of .ci/run; docs/reference/fuzzing.md, "Sanitizers", records the last clean run.
# Extra arguments after the sanitizer go to `swift test` (`scripts/sanitize.sh thread --filter PlaybackEngine`).
# Exit status: 0 when every test passed and the sanitizer reported nothing.
set -euo pipefail
cd "$(dirname "$0")/.."
kinds=(address thread)
if [ $# -gt 0 ]; then
  case $1 in
    address | thread) kinds=("$1"); shift ;;
    *) echo "sanitize: expected address or thread, not '$1'" >&2; exit 2 ;;
  esac
fi

failed=0
for kind in "${kinds[@]}"; do
  case $kind in
    address) scratch=.build-asan ;;
    thread) scratch=.build-tsan ;;
  esac
  log="$scratch/sanitize-$kind.log"
  mkdir -p "$scratch"
  echo "sanitize: swift test --sanitize=$kind (build folder $scratch, log $log)…"
  set +e
  # halt_on_error: a report fails the run instead of scrolling past. Swift's crash reporter is off so a sanitizer
  # abort prints the sanitizer's report and ends at once. --disable-xctest: every test is a Swift Testing test, and
  # XCTest's empty pass leaks its own suite objects at exit (libXCTest, not ours).
  SWIFT_BACKTRACE=enable=no \
    ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 \
    LSAN_OPTIONS="suppressions=$(pwd)/scripts/lsan-suppressions.txt:print_suppressions=0" \
    TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:suppressions=$(pwd)/scripts/tsan-suppressions.txt" \
    nice -n 10 swift test --no-parallel --disable-xctest --sanitize="$kind" --scratch-path "$scratch" "$@" >"$log" 2>&1
  status=$?
  set -e
  reports=$(grep -cE "^(==[0-9]+==ERROR|WARNING: ThreadSanitizer|SUMMARY: (Address|Leak|Thread)Sanitizer)" "$log" || true)
  if [ $status -eq 0 ] && [ "$reports" -eq 0 ]; then
    echo "sanitize: $kind clean — $(grep -E "Test run with .* passed|Executed .* tests" "$log" | tail -2 | tr '\n' ' ')"
  else
    echo "sanitize: $kind FAILED (exit $status, $reports sanitizer report lines); see $log" >&2
    grep -E "^(==[0-9]+==ERROR|WARNING: ThreadSanitizer|SUMMARY:)|✘ Test .* failed|error: " "$log" | head -20 >&2 || true
    failed=1
  fi
done
exit $failed
