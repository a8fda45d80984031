#!/usr/bin/env bash
# Records every deterministic output of vplay's dry runs into OUTDIR, so a refactor can be checked byte for byte:
#   scripts/dry-run-outputs.sh OUTDIR [VPLAY]      then   diff -r BEFORE AFTER
# The documented examples on the demo tag (text, --json, --beacons, --report, --junit, --timeline, expectations), every
# tag in media/, and every IAB sample under ../shared/vast-samples/iab when present (played offline through --map).
set -uo pipefail
out=${1:?usage: dry-run-outputs.sh OUTDIR [VPLAY]}
root=$(cd "$(dirname "$0")/.." && pwd)
vplay=${2:-$root/.build/debug/vplay}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$root"
fixed=(--dry-run --seed 7 --now 2026-01-01T00:00:00Z)

run() {  # NAME ARGS...: stdout, stderr-free exit code, and the named files
  local name=$1; shift
  "$vplay" "$@" >"$out/$name.stdout" 2>"$out/$name.stderr"
  echo "$?" >"$out/$name.exit"
}

for tag in media/*.xml; do
  base=$(basename "$tag" .xml)
  run "$base-text" --vast "$tag" "${fixed[@]}"
  run "$base-json" --vast "$tag" "${fixed[@]}" --json --beacons "$out/$base.beacons.jsonl" \
    --report "$out/$base.report.json" --junit "$out/$base.junit.xml" --timeline "$out/$base.timeline.svg"
  for script in "background@3,foreground@13" "mute@1,pause@2,resume@4,click@5,clickthroughClose@7,skip@8" \
                "close@2" "background@3" "replay@1"; do
    key=$(echo "$script" | tr -c 'a-zA-Z0-9\n' '_')
    run "$base-script-$key" --vast "$tag" "${fixed[@]}" --json --script "$script"
  done
  run "$base-record" --vast "$tag" "${fixed[@]}" --script "background@3,foreground@13" --record-expectations "$out/$base.golden.json"
  run "$base-expect" --vast "$tag" "${fixed[@]}" --script "background@3,foreground@13" --expect "$out/$base.golden.json" --junit "$out/$base.expect-junit.xml"
  run "$base-inspect" inspect --vast "$tag"
  run "$base-inspect-json" inspect --vast "$tag" --json
  run "$base-fleet" fleet --vast "$tag" --sessions 50 --dry-run --seed 7 --now 2026-01-01T00:00:00Z --json --report "$out/$base.fleet.json"
done

iab="$root/../shared/vast-samples/iab"
if [ -d "$iab" ]; then
  for tag in "$iab"/vast*/*.xml; do
    base=iab-$(basename "$(dirname "$tag")")-$(basename "$tag" .xml)
    maps=(--map "https://iab-publicfiles.s3.amazonaws.com/vast/=$iab/media/"
          --map "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/VAST_Samples/master/VAST%204.0%20Samples/=$iab/vast4.0/"
          --map "https://raw.githubusercontent.com/InteractiveAdvertisingBureau/VAST_Samples/master/VAST%203.0%20Samples/=$iab/vast3/")
    run "$base-json" --vast "$tag" "${maps[@]}" "${fixed[@]}" --json --beacons "$out/$base.beacons.jsonl" --junit "$out/$base.junit.xml"
    run "$base-inspect-json" inspect --vast "$tag" "${maps[@]}" --json
  done
fi
# Absolute paths of this checkout and of OUTDIR are the only things allowed to differ between two recordings.
grep -rl "$root\|$out" "$out" | while read -r file; do sed -i "s#$out#OUT#g; s#$root#ROOT#g" "$file"; done
echo "recorded $(ls "$out" | wc -l) files in $out"
