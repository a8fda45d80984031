#!/usr/bin/env bash
# What `vplay lint` costs, side by side with what it replaces (issue 39):
#  1. creative QA (loudness, true peak, leaders, scan: every frame measured in the decode pass) on a 30 s 1080p clip:
#     `vplay lint TAG` (resolve, open, decode once through the meters) against `vplay probe --decode FILE` (open,
#     decode every frame, measure nothing). Target: ratio <= 1.15.
#  2. 50 tags in one `vplay lint` call (4 at a time, one process) against 50 `vplay inspect` runs one after another,
#     as a CI script looping over its tags would. Target: ratio <= 0.5. Measured with creative QA on (lint decodes
#     every clip, inspect decodes none) and off (`--no-creative`: the same work as inspect).
#
#   scripts/bench-lint.sh [RUNS]      (default 5 runs per command, after one warm-up each)
#
# vplay is built in release mode with the Swift runtime linked statically, as bench-decode.sh builds it. Prints
# Markdown rows of medians (scripts/bench/measure.py); docs/benchmarks.md keeps them.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
scratch=.build-bench
mkdir -p "$scratch/lint50"

echo "bench: building vplay (release)..." >&2
swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay

clip="$scratch/clip-30s-1080p.mp4"
if [ ! -f "$clip" ]; then
  echo "bench: generating $clip..." >&2
  ffmpeg -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=30 \
    -f lavfi -i "aevalsrc=0.0631*sin(2*PI*1000*t)|0.0631*sin(2*PI*1000*t):s=48000:d=30" \
    -c:v libx264 -preset veryfast -crf 28 -pix_fmt yuv420p -c:a aac -b:a 128k -movflags +faststart "$clip"
fi
tag="$scratch/clip-30s-1080p.xml"
sed -e "s#\.\./qa-reference\.mp4#$PWD/$clip#" -e 's#width="320" height="180"#width="1920" height="1080"#' \
  -e 's#00:00:06\.000#00:00:30.000#' media/qa/reference.xml > "$tag"

# 50 copies of the demo tag, its clip by absolute path.
for i in $(seq -w 1 50); do
  sed "s#clip-10s-360p\.mp4#$PWD/media/clip-10s-360p.mp4#" media/demo.xml > "$scratch/lint50/tag-$i.xml"
done
inspect50="for f in $scratch/lint50/*.xml; do \"$vplay\" inspect --vast \"\$f\" >/dev/null || exit 1; done"

row() {  # label, pass, ours (a shell command), theirs (a shell command)
  spec=$(python3 -c 'import json,sys; print(json.dumps({"runs": int(sys.argv[1]), "row": [sys.argv[2], sys.argv[3]],
    "commands": {"vplay": ["sh", "-c", sys.argv[4]], "ffmpeg": ["sh", "-c", sys.argv[5]]}}))' "$runs" "$1" "$2" "$3" "$4")
  python3 scripts/bench/measure.py "$spec"
}

printf '| what | vplay lint vs | lint median | reference median | ratio | lint peak RSS | reference peak RSS | RSS ratio |\n'
printf '|---|---|---|---|---|---|---|---|\n'
row "creative QA, 30 s 1080p" "probe --decode" "\"$vplay\" lint \"$tag\" >/dev/null" "\"$vplay\" probe --decode \"$clip\" >/dev/null"
row "50 demo tags, creative QA" "50 inspect runs" "\"$vplay\" lint $scratch/lint50 >/dev/null" "$inspect50"
row "50 demo tags, --no-creative" "50 inspect runs" "\"$vplay\" lint --no-creative $scratch/lint50 >/dev/null" "$inspect50"
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), FFmpeg $(ffmpeg -version | head -1 | cut -d' ' -f3), $runs runs per command (medians; the reference column is the second command)."
