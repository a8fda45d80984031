#!/usr/bin/env bash
# Decode and demux speed and peak memory of vplay against the ffmpeg CLI on the same files, side by side.
#
#   scripts/bench-decode.sh [RUNS]      (default 7 runs per command, after one warm-up each)
#
# For each file: `vplay probe --decode` vs `ffmpeg -v error -i FILE -f null -` (both decode every audio and video
# frame with the same libavcodec, threads auto), and `vplay probe --demux` vs `ffmpeg -v error -i FILE -c copy
# -f null -`. Prints medians of wall time and peak RSS and the ratios (vplay / ffmpeg: below 1 is vplay faster or
# smaller). Targets (issue 2): decode ratio <= 1.0, demux ratio <= 0.7, peak RSS below ffmpeg's.
# vplay is built in release mode with the Swift runtime linked statically (--static-swift-stdlib), as a shipped
# binary would be: half of a dynamically linked start-up is the loader resolving Swift symbols across ~150 shared
# libraries. Files: the media/ clips, a 60 s 1280x720 clip generated once into .build-bench/ (long enough that decoding,
# not process start-up, dominates), a 5 s 3840x2160 clip (peak RSS on 4K), and the IAB 15 s sample when ../shared is
# present, and an HLS playlist of the 60 s clip (`ffmpeg -i index.m3u8 -f null -` the reference). Then the cost of the
# timeline pass vplay makes when it opens a local file.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-7}
scratch=.build-bench
mkdir -p "$scratch"

echo "bench: building vplay (release)..." >&2
swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay

long="$scratch/clip-60s-720p.mp4"
if [ ! -f "$long" ]; then
  echo "bench: generating $long..." >&2
  ffmpeg -v error -y -f lavfi -i testsrc2=size=1280x720:rate=30:duration=60 -f lavfi -i sine=frequency=440:sample_rate=48000:duration=60 \
    -c:v libx264 -preset veryfast -crf 28 -pix_fmt yuv420p -c:a aac -b:a 96k "$long"
fi

# 4K: decoder frames (12 MiB each at 3840x2160) dominate the peak, not the process's own footprint.
uhd="$scratch/clip-5s-2160p.mp4"
if [ ! -f "$uhd" ]; then
  echo "bench: generating $uhd..." >&2
  ffmpeg -v error -y -f lavfi -i testsrc2=size=3840x2160:rate=30:duration=5 -f lavfi -i sine=frequency=440:sample_rate=48000:duration=5 \
    -c:v libx264 -preset veryfast -crf 28 -pix_fmt yuv420p -c:a aac -b:a 96k "$uhd"
fi

# HLS (issue 23): the 60 s clip remuxed into a VOD playlist of 4 s MPEG-TS segments; both read the local playlist.
hls="$scratch/hls-60s-720p/index.m3u8"
if [ ! -f "$hls" ]; then
  echo "bench: generating $hls..." >&2
  mkdir -p "$(dirname "$hls")"
  ffmpeg -v error -y -i "$long" -c copy -f hls -hls_time 4 -hls_playlist_type vod \
    -hls_segment_filename "$(dirname "$hls")/seg%d.ts" "$hls"
fi

files=(media/clip-10s-360p.mp4 "$long" "$uhd")
[ -f ../shared/vast-samples/iab/media/VAST-4.0-Short-Intro.mp4 ] && files+=(../shared/vast-samples/iab/media/VAST-4.0-Short-Intro.mp4)
timed=("${files[@]}")
files+=("$hls")

printf '| file | pass | vplay median | ffmpeg median | ratio | vplay peak RSS | ffmpeg peak RSS | RSS ratio |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for file in "${files[@]}"; do
  label=$(basename "$file")
  [[ "$file" == *.m3u8 ]] && label="$(basename "$(dirname "$file")")/$label"
  for pass in decode demux; do
    if [ "$pass" = decode ]; then
      ours=("$vplay" probe --decode "$file"); theirs=(ffmpeg -nostdin -v error -i "$file" -f null -)
    else
      ours=("$vplay" probe --demux "$file"); theirs=(ffmpeg -nostdin -v error -i "$file" -c copy -f null -)
    fi
    spec=$(python3 -c 'import json,sys; print(json.dumps({"runs": int(sys.argv[1]), "row": [sys.argv[4], sys.argv[5]], "commands": {"vplay": sys.argv[2].split("\x1f"), "ffmpeg": sys.argv[3].split("\x1f")}}))' \
      "$runs" "$(IFS=$'\x1f'; echo "${ours[*]}")" "$(IFS=$'\x1f'; echo "${theirs[*]}")" "$label" "$pass")
    python3 scripts/bench/measure.py "$spec"
  done
done

# What measuring the presentation timeline costs at open (a demux pass over a second opening of a local file):
# the pass's own wall time as `vplay probe` reports it, median of RUNS.
echo
printf '| file | timeline pass (median) |\n|---|---|\n'
for file in "${timed[@]}"; do  # an HLS playlist has no timeline pass (its timeline is its #EXTINFs)
  pass=$(for _ in $(seq "$runs"); do "$vplay" probe --json "$file" | python3 -c 'import json,sys; print(json.load(sys.stdin)["timeline"]["passTime"])'; done \
    | sort -g | awk '{ v[NR] = $1 } END { printf "%.1f ms", v[int((NR + 1) / 2)] * 1000 }')
  printf '| %s | %s |\n' "$(basename "$file")" "$pass"
done
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), FFmpeg $(ffmpeg -version | head -1 | cut -d' ' -f3), $runs runs per command (medians)."
