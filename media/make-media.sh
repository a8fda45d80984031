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

# The server-guided insertion demo's ad (media/sgai/content.m3u8): the 5 s clip above as an HLS stream of 2 s
# MPEG-TS segments (~85 KB), remuxed, not re-encoded.
mkdir -p "$out/sgai/ad"
ffmpeg -v error -y -i "$out/clip-5s-video-only.mp4" -c copy -fflags +bitexact -map_metadata -1 \
  -f hls -hls_time 2 -hls_playlist_type vod -hls_segment_filename "$out/sgai/ad/seg%d.ts" "$out/sgai/ad/index.m3u8"

# Creative QA clips (`vplay lint`'s VPLAY-creative-* rules), each made to break chosen rules and keep the others:
# a 1 kHz stereo tone at amplitude 0.0631 (-24 dBFS a channel) measures -24 LUFS (ATSC A/85's target); 48 kHz AAC-LC.
tone='0.0631*sin(2*PI*1000*t)'
qa_audio=(-c:a aac -b:a 128k)
# 6 s that keep every creative rule: progressive High-profile H.264, -24 LUFS, no leaders, moov first.
ffmpeg -v error -y \
  -f lavfi -i testsrc2=size=320x180:rate=25:duration=6 \
  -f lavfi -i "aevalsrc=$tone|$tone:s=48000:d=6" \
  "${x264[@]}" -crf 40 -g 50 "${qa_audio[@]}" "${exact[@]}" "$out/qa-reference.mp4"
# 4 s, far too loud: a 997 Hz mono tone at amplitude 0.9 (-3.9 LUFS, true peak about -0.9 dBTP), 44.1 kHz AAC at
# 64 kbps, H.264 High 4:4:4 Predictive.
ffmpeg -v error -y \
  -f lavfi -i testsrc2=size=320x180:rate=25:duration=4 \
  -f lavfi -i "aevalsrc=0.9*sin(2*PI*997*t):s=44100:d=4" \
  -c:v libx264 -preset medium -pix_fmt yuv444p -threads 1 -x264-params threads=1 -crf 40 -g 50 \
  -c:a aac -b:a 64k "${exact[@]}" "$out/qa-loud.mp4"
# 5 s: black for the first and the last second, silence in the last second.
ffmpeg -v error -y \
  -f lavfi -i "testsrc2=size=320x180:rate=25:duration=5,drawbox=color=black:t=fill:enable='lt(t,1)+gte(t,4)'" \
  -f lavfi -i "aevalsrc='if(lt(t,4),$tone,0)|if(lt(t,4),$tone,0)':s=48000:d=5" \
  "${x264[@]}" -crf 40 -g 50 -c:a aac -b:a 192k "${exact[@]}" "$out/qa-black-silent.mp4"
# 5 s: a grey slate for the first second, the last picture held for the last second, silence in the first second.
ffmpeg -v error -y \
  -f lavfi -i "testsrc2=size=320x180:rate=25:duration=4,drawbox=color=gray:t=fill:enable='lt(t,1)',tpad=stop_mode=clone:stop_duration=1" \
  -f lavfi -i "aevalsrc='if(gte(t,1),$tone,0)|if(gte(t,1),$tone,0)':s=48000:d=5" \
  "${x264[@]}" -crf 40 -g 50 -c:a aac -b:a 192k "${exact[@]}" "$out/qa-frozen-silent.mp4"
# 3 s coded interlaced (field pictures, top field first).
ffmpeg -v error -y \
  -f lavfi -i testsrc2=size=320x180:rate=25:duration=3 \
  -f lavfi -i "aevalsrc=$tone|$tone:s=48000:d=3" \
  "${x264[@]}" -flags +ildct+ilme -crf 40 -g 50 "${qa_audio[@]}" "${exact[@]}" "$out/qa-interlaced.mp4"
# 3 s with its moov after its media data (no +faststart), its H.264 labelled level 1.0 (too low for 320x180 at 25 fps).
ffmpeg -v error -y \
  -f lavfi -i testsrc2=size=320x180:rate=25:duration=3 \
  -f lavfi -i "aevalsrc=$tone|$tone:s=48000:d=3" \
  "${x264[@]}" -level 1.0 -crf 40 -g 50 "${qa_audio[@]}" -fflags +bitexact -flags +bitexact -map_metadata -1 "$out/qa-trailing-moov.mp4"

ls -l "$out"/*.mp4
