#!/usr/bin/env bash
# Builds vplay's libFuzzer targets (the Fuzz/ package) and runs each for SECONDS (default 600).
#
#   scripts/fuzz.sh                  # every target, 10 minutes each, one after the other
#   scripts/fuzz.sh 60 vast media    # two targets, one minute each
#   FUZZ_JOBS=2 scripts/fuzz.sh      # two targets at a time (the machine has cores to spare)
#
# Targets: vast (VASTParser), macros (MacroExpander), script (SessionScript text and JSON), expectations
# (SessionExpectations from JSON and YAML, then checked against a dry run of media/demo.xml), media
# (FFmpegMediaSource on mutated MP4/MOV/WebM, inputs up to 64 KiB), url (a tracking template expanded, then
# RequestURL.check and a restrictive URLGate, then each next line as a redirect Location against it), mpd (the DASH
# manifest reader: every representation's segment addresses), capture (the audit's HAR, sink log and beacon log
# readers).
#
# Seeds: Fuzz/corpus/TARGET (committed, small) and, for vast, ../shared/vast-samples/iab when present (read only).
# What libFuzzer learns goes to Fuzz/.work/corpus/TARGET, logs to Fuzz/.work/logs, crashes, hangs (over 30 s per
# input) and out-of-memory inputs to Fuzz/crashes/TARGET/; none of these are committed. Replay one input with
#   SWIFT_BACKTRACE=enable=no Fuzz/.build/release/fuzz-TARGET Fuzz/crashes/TARGET/crash-…
# A finding becomes a regression test in Tests/ (see docs/reference/fuzzing.md).
#
# Build: Swift's `-sanitize=fuzzer` links libFuzzer (libclang_rt.fuzzer in the toolchain) and instruments our Swift
# code for coverage; `address` adds AddressSanitizer. FFmpeg, libxml2 and Foundation are not instrumented: their
# memory errors on our inputs are still caught where they cross into instrumented code or trip ASan's interceptors,
# but the fuzzer gets no coverage feedback from inside them. Exit status: 0 when every target ran clean.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
seconds=${1:-600}
shift || true
all=(vast macros script expectations media url mpd capture)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for target in "${targets[@]}"; do
  [[ " ${all[*]} " == *" $target "* ]] || { echo "fuzz: unknown target '$target' (one of: ${all[*]})" >&2; exit 2; }
done
[[ "$seconds" =~ ^[0-9]+$ ]] || { echo "fuzz: SECONDS must be a whole number, not '$seconds'" >&2; exit 2; }

# lld, not the default gold: gold stops with an internal error (in format_file_lineno) linking libFuzzer's
# whole-archive runtime next to SwiftPM's `main`.
flags=(-c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld)
echo "fuzz: building the fuzz targets (swift build ${flags[*]}; the first build takes 25 min on 2 cores)…"
(cd Fuzz && nice -n 10 swift build "${flags[@]}" 2>&1 | grep -E "error|warning: /|Compiling fuzz|Build" | tail -5)
bin=$(cd Fuzz && swift build "${flags[@]}" --show-bin-path)

# Longest input per target: large enough for the seeds, small enough to keep each run fast.
max_len() {
  case $1 in
    vast|mpd|capture) echo 16384 ;;
    media) echo 65536 ;;
    *) echo 4096 ;;
  esac
}

# Leak checks after each input that allocated more than it freed (the input that leaks is saved), except for vast:
# there every malformed document leaks a suppressed Foundation string (scripts/lsan-suppressions.txt), which would
# make libFuzzer scan the heap after nearly every input (140 instead of 3,500 runs a second). For vast the check
# runs once, at exit, over everything the run did; an unsuppressed leak still fails the run.
per_input_leaks() {
  case $1 in
    vast) echo 0 ;;
    *) echo 1 ;;
  esac
}

run_target() {
  local target=$1
  local work="$root/Fuzz/.work" crashes="$root/Fuzz/crashes/$target"
  mkdir -p "$work/corpus/$target" "$work/logs" "$crashes"
  local seeds=("$root/Fuzz/corpus/$target")
  if [ "$target" = vast ] && [ -d "$root/../shared/vast-samples/iab" ]; then
    for dir in "$root"/../shared/vast-samples/iab/vast*/; do seeds+=("$dir"); done
  fi
  local log="$work/logs/$target.log"
  # Swift's own crash reporter would wait on the terminal; libFuzzer and ASan print the stack themselves.
  # detect_leaks stays on: a leak of an FFmpeg context or a parser buffer is a finding (third-party leaks proven
  # not ours are listed, with the reason, in scripts/lsan-suppressions.txt).
  set +e
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    LSAN_OPTIONS="suppressions=$root/scripts/lsan-suppressions.txt:print_suppressions=0" \
    nice -n 10 "$bin/fuzz-$target" -max_total_time="$seconds" -timeout=30 -rss_limit_mb=2048 \
      -max_len="$(max_len "$target")" -detect_leaks="$(per_input_leaks "$target")" -print_final_stats=1 -artifact_prefix="$crashes/" \
      "$work/corpus/$target" "${seeds[@]}" >"$log" 2>&1
  local status=$?
  set -e
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ $status -eq 0 ]; then
    echo "fuzz: $target ran clean for ${seconds} s, ${runs:-?} executions (log: Fuzz/.work/logs/$target.log)"
  else
    echo "fuzz: $target FAILED (exit $status) after ${runs:-?} executions; input in Fuzz/crashes/$target/, log:" >&2
    grep -E "^(==[0-9]+==ERROR|SUMMARY|Fatal error|.*: Fatal error|artifact_prefix|Test unit written)" "$log" | head -8 >&2 || true
  fi
  return $status
}

failed=0
jobs=${FUZZ_JOBS:-1}
pids=()
for target in "${targets[@]}"; do
  run_target "$target" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || failed=1
    pids=("${pids[@]:1}")
  fi
done
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
exit $failed
