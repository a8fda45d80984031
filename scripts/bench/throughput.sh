#!/usr/bin/env bash
# Beacon throughput against a real collector, side by side with a load tool: nginx (Debian's nginx-light, one
# worker, 204 to every path, in a session of its own as a service runs) on loopback, then in one run
#   1. ab -k -c 64            ApacheBench, keep-alive, 64 in flight: the reference
#   2. vplay fleet --collector every beacon of the demo tag's sessions to nginx, one request at a time per
#      connection (as devices send), then with --pipeline 8 (HTTP/1.1 pipelining, as load tools can)
#   3. vplay fleet --sink-all  every beacon to vplay's embedded sink, in the same process
#   4. the IAB 15 s ad, 10,000 sessions, every beacon to the embedded sink (when ../shared has the IAB samples)
# and prints requests (beacons) per second, CPU microseconds per request (user + system of the client process;
# ab's and vplay's own, nginx's not counted), the ratio to ab and peak RSS. Installs nginx-light and apache2-utils
# when missing (sudo when not root). Both sides share the machine's cores: the figures are for this machine, as
# it is, in one run.
#
#   scripts/bench/throughput.sh [SESSIONS] [AB_REQUESTS]     (defaults 12000 sessions, 400000 requests)
set -euo pipefail
cd "$(dirname "$0")/../.."
sessions=${1:-12000}
requests=${2:-400000}

missing=()
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx-light)
command -v ab >/dev/null 2>&1 || missing+=(apache2-utils)
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "throughput: installing ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
nginx=$(command -v nginx || echo /usr/sbin/nginx)

echo "throughput: building vplay (release)..." >&2
swift build -c release --static-swift-stdlib --scratch-path .build-static --product vplay >/dev/null
vplay=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)/vplay

work=$(mktemp -d)
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
daemon off;
pid $work/nginx.pid;
error_log $work/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  keepalive_requests 1000000;
  keepalive_timeout 300s;
  client_body_temp_path $work/body;
  proxy_temp_path $work/proxy;
  fastcgi_temp_path $work/fastcgi;
  uwsgi_temp_path $work/uwsgi;
  scgi_temp_path $work/scgi;
  server {
    listen 127.0.0.1:$port;
    location / { return 204; }
  }
}
CONF
user_line=""; [ "$(id -u)" -eq 0 ] && user_line="user root;"
[ -n "$user_line" ] && sed -i "1i $user_line" "$work/nginx.conf"
# In a session of its own (setsid), as a service runs (a daemon's own session; under systemd its own cgroup): started
# in this script's session, nginx shared the client's scheduling group (Linux's autogroups), and the fleet, whose two
# event loops then competed with it thread for thread, measured about 15 % fewer beacons/s (57,000 against 66,000 on
# 2026-11-24); ab's figure is the same either way (142,000-149,000).
setsid "$nginx" -c "$work/nginx.conf" -p "$work" &
nginx_pid=$!
trap 'kill $nginx_pid 2>/dev/null || true; wait $nginx_pid 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 100); do (echo > "/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done

# ab: requests/s from its own report, CPU from /usr/bin/time.
/usr/bin/time -f '%U %S %M' -o "$work/ab.time" ab -q -k -c 64 -n "$requests" "http://127.0.0.1:$port/bench" > "$work/ab.out" 2>&1
ab_rps=$(awk '/Requests per second/ {print $4}' "$work/ab.out")
ab_failed=$(awk '/Failed requests/ {print $3}' "$work/ab.out")
ab_seconds=$(awk '/Time taken for tests/ {print $5}' "$work/ab.out")

# A fleet: its report's counts and performance, CPU and peak RSS from /usr/bin/time.
fleet() {  # name, then vplay fleet arguments
  local name=$1; shift
  /usr/bin/time -f '%U %S %M' -o "$work/$name.time" "$vplay" fleet "$@" --json --quiet > "$work/$name.json" || true
}
fleet collector --vast media/demo.xml --sessions "$sessions" --concurrency 64 --seed 7 --collector "http://127.0.0.1:$port"
fleet pipelined --vast media/demo.xml --sessions "$sessions" --concurrency 64 --seed 7 --collector "http://127.0.0.1:$port" --pipeline 8
fleet sink --vast media/demo.xml --sessions "$sessions" --concurrency 64 --seed 7 --sink-all
iab=../shared/vast-samples/iab
if [ -f "$iab/vast4.0/Inline_Simple.xml" ] && [ -f "$iab/media/VAST-4.0-Short-Intro.mp4" ]; then
  fleet iab --vast "$iab/vast4.0/Inline_Simple.xml" --map "https://iab-publicfiles.s3.amazonaws.com/vast/=$iab/media/" \
        --sessions 10000 --concurrency 64 --seed 7 --sink-all
fi

python3 - "$work" "$ab_rps" "$ab_seconds" "$ab_failed" "$requests" <<'PY'
import json, os, sys
work, ab_rps, ab_seconds, ab_failed, ab_requests = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4], int(sys.argv[5])
def cpu(name):
    user, system, rss = open(os.path.join(work, name + ".time")).read().split()[-3:]
    return float(user) + float(system), int(rss) / 1024
ab_cpu, ab_rss = cpu("ab")
rows = [("ab -k -c 64", ab_requests, ab_seconds, ab_rps, ab_cpu / ab_requests * 1e6, 1.0, ab_rss, f"{ab_failed} failed")]
for name, label in [("collector", "vplay fleet --collector (demo)"), ("pipelined", "vplay fleet --collector --pipeline 8 (demo)"),
                    ("sink", "vplay fleet --sink-all (demo)"),
                    ("iab", "vplay fleet --sink-all, IAB 15 s ad, 10,000 sessions")]:
    path = os.path.join(work, name + ".json")
    if not os.path.exists(path):
        print(f"({label}: skipped, ../shared/vast-samples/iab is absent)")
        continue
    try:
        report = json.load(open(path))
    except ValueError:
        print(f"({label}: no report: the fleet failed)")
        continue
    beacons = report["population"]["beacons"]
    expected = sum(row.get("expected", 0) for row in beacons)
    sent = sum(row.get("sent", 0) for row in beacons)
    delivered = sum(row.get("delivered", 0) for row in beacons)
    perf = report["performance"]
    seconds = perf.get("wallTime", perf.get("seconds"))
    used, rss = cpu(name)
    rate = sent / seconds if seconds else 0
    check = "expected = sent = delivered" if expected == sent == delivered else f"expected {expected}, sent {sent}, delivered {delivered}"
    rows.append((label, sent, seconds, rate, used / max(sent, 1) * 1e6, rate / ab_rps, rss, check))
print("| client | requests | seconds | requests/s | CPU µs/request | × ab | peak RSS | check |")
print("|---|---|---|---|---|---|---|---|")
for label, count, seconds, rate, us, ratio, rss, check in rows:
    print(f"| {label} | {count:,} | {seconds:.2f} | {rate:,.0f} | {us:.1f} | {ratio:.2f} | {rss:.0f} MiB | {check} |")
PY
echo
echo "Machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); nginx $("$nginx" -v 2>&1 | cut -d/ -f2), one worker, on the same cores."
