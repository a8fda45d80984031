#!/usr/bin/env python3
"""Runs a vplay fleet with --metrics under a real Prometheus server on loopback, and reports what Prometheus saw.

    prometheus-scrape.py WORKDIR VPLAY FLEET-ARGS...

Starts Debian's `prometheus` (scrape interval 1 s, its data in WORKDIR) on a free loopback port, scraping the fleet's
endpoint at another free port; runs `VPLAY fleet FLEET-ARGS --metrics 127.0.0.1:PORT --metrics-linger 120` (the fleet
waits until its final figures are scraped); keeps one exposition taken while the fleet ran and checks it with
`promtool check metrics`; then asks Prometheus, by PromQL, for the final figures. Prints one JSON object: the fleet's
exit code, promtool's verdict and output, and each query's value. Every wait is a readiness wait (bounded, generous);
nothing is timed.
"""
import json, os, socket, subprocess, sys, time, urllib.parse, urllib.request

work, vplay, fleet_args = sys.argv[1], sys.argv[2], sys.argv[3:]

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def get(url):
    with urllib.request.urlopen(url, timeout=10) as answer:
        return answer.read().decode()

def wait_for(what, condition, limit=180):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except OSError:
            pass
        time.sleep(0.2)
    sys.exit(f"prometheus-scrape: {what} did not happen within {limit} s")

def query(expression):
    answer = json.loads(get(f"http://127.0.0.1:{web}/api/v1/query?" + urllib.parse.urlencode({"query": expression})))
    return answer["data"]["result"]

metrics, web = free_port(), free_port()
with open(os.path.join(work, "prometheus.yml"), "w") as config:
    config.write(f"""global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: vplay-fleet
    static_configs:
      - targets: ['127.0.0.1:{metrics}']
""")
prometheus = subprocess.Popen(
    ["prometheus", f"--config.file={work}/prometheus.yml", f"--storage.tsdb.path={work}/data",
     f"--web.listen-address=127.0.0.1:{web}", "--web.enable-lifecycle"],
    stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "prometheus.log"), "w"))
try:
    wait_for("Prometheus ready", lambda: "Ready" in get(f"http://127.0.0.1:{web}/-/ready"))
    errors = open(os.path.join(work, "fleet.stderr"), "w")
    fleet = subprocess.Popen([vplay, "fleet", *fleet_args, "--metrics", f"127.0.0.1:{metrics}", "--metrics-linger", "120"],
                             stdout=subprocess.DEVNULL, stderr=errors)
    # One exposition while the fleet runs (its endpoint is up before the first session plays).
    exposition = wait_for("the fleet's /metrics", lambda: fleet.poll() is None and get(f"http://127.0.0.1:{metrics}/metrics"))
    code = fleet.wait(timeout=600)
    with open(os.path.join(work, "exposition.txt"), "w") as saved:
        saved.write(exposition)
    check = subprocess.run(["promtool", "check", "metrics"], input=exposition, capture_output=True, text=True)
    # The final scrape is in once Prometheus has a sample of vplay_fleet_finished == 1.
    wait_for("the final scrape", lambda: any(r["value"][1] == "1" for r in query("vplay_fleet_finished")), limit=120)
    results = {}
    for name, expression in [("sent", "sum(vplay_fleet_beacons_sent_total)"),
                             ("received", "sum(vplay_fleet_beacons_received_total)"),
                             ("delivered", "sum(vplay_fleet_beacons_delivered_total)"),
                             ("sessionsDone", "sum(vplay_fleet_sessions{state=\"done\"})"),
                             ("impressions", "sum(vplay_fleet_beacons_sent_total{event=\"impression\"})"),
                             ("unmatched", "sum(vplay_fleet_sink_unmatched)"),
                             ("leastFinished", "min_over_time(vplay_fleet_finished[1h])"),
                             ("leastImpressions", "min(min_over_time(vplay_fleet_beacons_sent_total{event=\"impression\"}[1h]))")]:
        result = query(expression)
        results[name] = float(result[0]["value"][1]) if result else None
    print(json.dumps({"fleetExit": code, "promtool": check.returncode, "promtoolOutput": check.stdout + check.stderr,
                      "queries": results}))
finally:
    prometheus.terminate()
    try:
        prometheus.wait(timeout=30)
    except subprocess.TimeoutExpired:
        prometheus.kill()
