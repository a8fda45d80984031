#!/usr/bin/env python3
"""Runs a vplay fleet with --metrics under a real Prometheus server on loopback, and reports what Prometheus saw.

    prometheus-scrape.py WORKDIR VPLAY FLEET-ARGS...

Starts Debian's `prometheus` (scrape interval 1 s, its data in WORKDIR) on loopback with a file-based target list;
runs `VPLAY fleet FLEET-ARGS --metrics 127.0.0.1:0 --metrics-linger 300` (the system picks the port, so no other
test can take it first; the fleet says it on stderr, and the target list is written then; the fleet waits until its
final figures are scraped); keeps one exposition taken while the fleet ran and checks it with `promtool check
metrics`; then asks Prometheus, by PromQL, for the final figures. Prints one JSON object: the fleet's exit code,
promtool's verdict and output, and each query's value; or, when something did not happen, `error` with why and the
logs' tails. Every wait is a readiness wait (bounded, generous: the whole suite shares two cores); nothing is timed.
"""
import json, os, re, socket, subprocess, sys, time, urllib.parse, urllib.request

work, vplay, fleet_args = sys.argv[1], sys.argv[2], sys.argv[3:]

class NotReady(Exception):
    pass

def tail(name, size=2000):
    try:
        with open(os.path.join(work, name), errors="replace") as f:
            return f.read()[-size:]
    except OSError:
        return ""

def get(url):
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode()

def wait_for(what, condition, limit=600):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except OSError:
            pass
        time.sleep(0.2)
    raise NotReady(f"{what} did not happen within {limit} s")

def start_prometheus():
    # A free port picked and closed may be taken before Prometheus binds it: try a few.
    for attempt in range(5):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        process = subprocess.Popen(
            ["prometheus", f"--config.file={work}/prometheus.yml", f"--storage.tsdb.path={work}/data-{attempt}",
             f"--web.listen-address=127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "prometheus.log"), "w"))
        try:
            wait_for("Prometheus ready", lambda: process.poll() is None and "Ready" in get(f"http://127.0.0.1:{port}/-/ready")
                     or (process.poll() is not None and "exited"))
        except NotReady:
            process.kill()
            raise
        if process.poll() is None:
            return process, port
    raise NotReady("Prometheus did not start on a free port in 5 tries")

with open(os.path.join(work, "targets.json"), "w") as targets:
    targets.write("[]")
with open(os.path.join(work, "prometheus.yml"), "w") as config:
    config.write(f"""global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: vplay-fleet
    file_sd_configs:
      - files: ['{work}/targets.json']
        refresh_interval: 1s
""")

prometheus, web = None, None
try:
    prometheus, web = start_prometheus()

    def query(expression):
        answer = json.loads(get(f"http://127.0.0.1:{web}/api/v1/query?" + urllib.parse.urlencode({"query": expression})))
        return answer["data"]["result"]

    errors_path = os.path.join(work, "fleet.stderr")
    fleet = subprocess.Popen([vplay, "fleet", *fleet_args, "--metrics", "127.0.0.1:0", "--metrics-linger", "300"],
                             stdout=subprocess.DEVNULL, stderr=open(errors_path, "w"))

    def announced():
        if fleet.poll() is not None:
            raise NotReady(f"the fleet exited {fleet.returncode} before serving /metrics")
        found = re.search(r"metrics: http://127\.0\.0\.1:(\d+)/metrics", tail("fleet.stderr", 100000))
        return found and int(found.group(1))
    metrics = wait_for("the fleet's metrics address on stderr", announced)
    with open(os.path.join(work, "targets.tmp"), "w") as targets:
        json.dump([{"targets": [f"127.0.0.1:{metrics}"]}], targets)
    os.rename(os.path.join(work, "targets.tmp"), os.path.join(work, "targets.json"))
    # One exposition while the fleet runs.
    exposition = wait_for("the fleet's /metrics", lambda: fleet.poll() is None and get(f"http://127.0.0.1:{metrics}/metrics"))
    code = fleet.wait(timeout=900)
    with open(os.path.join(work, "exposition.txt"), "w") as saved:
        saved.write(exposition)
    check = subprocess.run(["promtool", "check", "metrics"], input=exposition, capture_output=True, text=True)
    # The final scrape is in once Prometheus has a sample of vplay_fleet_finished == 1. The fleet has exited by now,
    # so its next scrape fails and Prometheus marks its series stale: an instant query then finds none of them (a
    # query that came later than a scrape interval after the exit, on a busy machine, found nothing, for good). Each
    # query reads the last sample of the last hour instead (range vectors skip staleness markers).
    wait_for("the final scrape in Prometheus", lambda: any(r["value"][1] == "1" for r in query("max_over_time(vplay_fleet_finished[1h])")))
    results = {}
    for name, expression in [("sent", "sum(last_over_time(vplay_fleet_beacons_sent_total[1h]))"),
                             ("received", "sum(last_over_time(vplay_fleet_beacons_received_total[1h]))"),
                             ("delivered", "sum(last_over_time(vplay_fleet_beacons_delivered_total[1h]))"),
                             ("sessionsDone", "sum(last_over_time(vplay_fleet_sessions{state=\"done\"}[1h]))"),
                             ("impressions", "sum(last_over_time(vplay_fleet_beacons_sent_total{event=\"impression\"}[1h]))"),
                             ("unmatched", "sum(last_over_time(vplay_fleet_sink_unmatched[1h]))"),
                             ("leastFinished", "min_over_time(vplay_fleet_finished[1h])"),
                             ("leastImpressions", "min(min_over_time(vplay_fleet_beacons_sent_total{event=\"impression\"}[1h]))")]:
        result = query(expression)
        results[name] = float(result[0]["value"][1]) if result else None
    print(json.dumps({"fleetExit": code, "promtool": check.returncode, "promtoolOutput": check.stdout + check.stderr,
                      "queries": results}))
except NotReady as reason:
    print(json.dumps({"error": str(reason), "prometheusLog": tail("prometheus.log"), "fleetStderr": tail("fleet.stderr")}))
finally:
    if prometheus is not None:
        prometheus.terminate()
        try:
            prometheus.wait(timeout=30)
        except subprocess.TimeoutExpired:
            prometheus.kill()
