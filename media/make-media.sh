#!/usr/bin/env bash
# Regenerates vplay's sample clips from FFmpeg's synthetic sources (lavfi testsrc2 + sine).
# Bit-exact flags and a single x264 thread make the bytes reproducible with the same FFmpeg build
# (Debian 12's FFmpeg 5.1); other builds give clips with the same frames and durations but other bytes.
#
#   media/make-media.sh            # writes the clips next to this script
#   media/make-media.sh OUT_DIR    # writes them somewhere else (tests compare durations, not bytes)
set -euo pipefail
out=${1:-$(cd "$(dirname "$0")" && pwd)}
mkdir -p "$out"
command -v ffmpeg >/dev/null || { echo "make-media: ffmpeg is missing (apt-get install ffmpeg)" >&2; exit 1; }

exact=(-fflags +bitexact -flags +bitexact -map_metadata -1 -movflags +faststart)
x264=(-c:v libx264 -preset medium -pix_fmt yuv420p -threads 1 -x264-params threads=1)

# 10 s, 640x360 at 24 fps, H.264 + mono AAC 44.1 kHz: the demo clip (~280 KB).
ffmpeg -v error -y \
  -f lavfi -i testsrc2=size=640x360:rate=24:duration=10 \
  -f lavfi -i sine=frequency=440:sample_rate=44100:duration=10 \
  "${x264[@]}" -crf 41 -g 48 -c:a aac -b:a 32k -ac 1 "${exact[@]}" "$out/clip-10s-360p.mp4"

# 5 s, 320x180 at 30 fps, video only.
ffmpeg -v error -y \
  -f lavfi -i testsrc2=size=320x180:rate=30:duration=5 \
  "${x264[@]}" -crf 40 -g 60 -an "${exact[@]}" "$out/clip-5s-video-only.mp4"

# 4 s of video (320x180, 25 fps) with 6 s of audio: the audio outlasts the video,
# so the ad's duration is the audio's (as AVPlayer and ExoPlayer take the longest track).
ffmpeg -v error -y \
  -f lavfi -i testsrc2=size=320x180:rate=25:duration=4 \
  -f lavfi -i sine=frequency=660:sample_rate=48000:duration=6 \
  "${x264[@]}" -crf 40 -g 50 -c:a aac -b:a 32k -ac 1 "${exact[@]}" "$out/clip-audio-outlasts-video.mp4"

ls -l "$out"/*.mp4
