#!/usr/bin/env bash
# `vplay audit` of a large capture: a HAR of ENTRIES requests (default 1,000,000: the demo's twelve beacons repeated,
# with strays between them), audited against the demo tag, beside `jq` reading the same file (the reference: parsing
# the JSON alone). Prints both wall times, their ratio and vplay's peak RSS. Each captured URL is read once and matched
# against every tracking row (`TemplateMatcher.Capture`); reading it again for each row took 224 s for a million
# entries.
#
#   scripts/bench/audit.sh [ENTRIES] [VPLAY]     (VPLAY: a built binary; default: the release build, made here)
set -euo pipefail
cd "$(dirname "$0")/../.."
entries=${1:-1000000}
vplay=${2:-}
command -v jq >/dev/null || { echo "bench: jq is missing (apt install jq)" >&2; exit 1; }
if [ -z "$vplay" ]; then
    echo "bench: building vplay (release)..." >&2
    swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
    vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$entries" "$work/capture.har" <<'EOF'
import json, sys
count, path = int(sys.argv[1]), sys.argv[2]
beacons = ["http://127.0.0.1:8089/impression?ad=vplay-demo-001&cb=1&ts=2026-01-01T00%3A00%3A00.000%2B00%3A00",
           "http://127.0.0.1:8089/start?cb=2", "http://127.0.0.1:8089/midpoint?pos=00%3A00%3A05.000&cb=3",
           "http://127.0.0.1:8089/complete?cb=4", "http://cdn.example/other/pixel.gif?n=5"]
with open(path, "w") as out:
    out.write('{"log":{"version":"1.2","creator":{"name":"bench","version":"1"},"entries":[')
    for index in range(count):
        if index: out.write(",")
        out.write(json.dumps({"startedDateTime": "2026-01-01T00:00:%02d.000Z" % (index % 60),
                              "request": {"method": "GET", "url": beacons[index % len(beacons)]}}))
    out.write("]}}")
EOF
seconds() { python3 -c 'import sys, time, subprocess; s = time.monotonic(); subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL); print("%.2f" % (time.monotonic() - s))' "$@"; }
reference=$(seconds jq '.log.entries | length' "$work/capture.har")
audit=$(seconds /usr/bin/time -f "%M" -o "$work/rss" "$vplay" audit --vast media/demo.xml --har "$work/capture.har" --report "$work/report.json")
rss=$(tail -1 "$work/rss")
echo "audit of $entries entries: vplay ${audit} s, jq ${reference} s, ratio $(python3 -c "print('%.1f' % ($audit / max($reference, 0.01)))"), peak RSS $((rss / 1024)) MiB"
