#!/usr/bin/env python3
"""The benchmark suite in one table: each row is vplay's figure, a reference measured side by side in the same run
(or the issue's target when there is nothing to run against), and the ratio (vplay / reference; below 1 is vplay
faster or smaller for times and memory, above 1 is better for rates).

Run by scripts/bench/all.sh, which builds vplay in release mode and passes its path:

    python3 scripts/bench/all.py VPLAY RUNS SESSIONS [ONLY]

ONLY = network runs only the simulated-network row (scripts/bench/network.sh).
"""
import json, os, shutil, signal, statistics, subprocess, sys, tempfile, time

VPLAY, RUNS, SESSIONS = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ONLY = sys.argv[4] if len(sys.argv) > 4 else None
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(ROOT)
IAB = "../shared/vast-samples/iab"
HAS_IAB = os.path.exists(f"{IAB}/media/VAST-4.0-Short-Intro.mp4")
if HAS_IAB:
    MEDIA = f"{IAB}/media/VAST-4.0-Short-Intro.mp4"
    TAG = [f"{IAB}/vast4.0/Event_Tracking-test.xml", "--map", f"https://iab-publicfiles.s3.amazonaws.com/vast/={IAB}/media/"]
    AD = "IAB 15 s ad"
else:
    MEDIA = "media/clip-10s-360p.mp4"
    TAG = ["media/demo.xml"]
    AD = "demo 10 s ad (../shared absent)"


def run(argv, capture=False):
    """Wall seconds, peak RSS (KiB) and stdout of one child process."""
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.PIPE if capture else subprocess.DEVNULL, stderr=subprocess.PIPE)
    out = child.stdout.read().decode() if capture else ""
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    err = child.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(argv)} failed: {err.strip()[-500:]}")
    return elapsed, usage.ru_maxrss, out


def side_by_side(a, b, runs=RUNS):
    """Medians of wall time and peak RSS of two commands, runs alternating (after one warm-up each)."""
    run(a), run(b)
    walls, rss = ([], []), ([], [])
    for _ in range(runs):
        for i, argv in enumerate((a, b)):
            wall, peak, _ = run(argv)
            walls[i].append(wall)
            rss[i].append(peak)
    return [statistics.median(w) for w in walls], [statistics.median(r) / 1024 for r in rss]


rows = []


def row(measure, ours, reference, ratio, target):
    rows.append((measure, ours, reference, ratio, target))
    print(f"bench: {measure}: {ours} vs {reference}", file=sys.stderr)


def table():
    print("| measure | vplay | reference (same run) | ratio | target |")
    print("|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    ffmpeg = subprocess.run(["ffmpeg", "-version"], capture_output=True, text=True).stdout.split()[2]
    print(f"\nMachine: {os.cpu_count()} cores, {cpu}, FFmpeg {ffmpeg}; {RUNS} runs per timed command (medians); {time.strftime('%Y-%m-%d')}.")


# 0. A virtual-clock session under a simulated network (wifi: no stall, so the same events) against the same session
# without one: the cost of the model is its demux pass over the file's packets (issue 16: at most 1.05×).
(w_n, w_p), (r_n, r_p) = side_by_side([VPLAY, "--vast", *TAG, "--dry-run", "--json", "--network", "wifi"], [VPLAY, "--vast", *TAG, "--dry-run", "--json"])
row(f"virtual-clock session with --network wifi, {AD} (wall)", f"{w_n * 1000:.0f} ms", f"without --network {w_p * 1000:.0f} ms", f"{w_n / w_p:.3f}", "≤ 1.05")
row("  its peak RSS", f"{r_n:.1f} MiB", f"without {r_p:.1f} MiB", f"{r_n / r_p:.2f}", "≈ 1")
if ONLY == "network":
    table()
    sys.exit(0)

# 1-2. Decode and demux against the ffmpeg CLI on the same file.
(w_v, w_f), (r_v, r_f) = side_by_side([VPLAY, "probe", "--decode", MEDIA], ["ffmpeg", "-nostdin", "-v", "error", "-i", MEDIA, "-f", "null", "-"])
row(f"decode {os.path.basename(MEDIA)} (wall)", f"{w_v * 1000:.0f} ms", f"ffmpeg -f null {w_f * 1000:.0f} ms", f"{w_v / w_f:.2f}", "≤ 1.0")
row("decode peak RSS", f"{r_v:.1f} MiB", f"ffmpeg {r_f:.1f} MiB", f"{r_v / r_f:.2f}", "< 1")
(w_v, w_f), (r_v, r_f) = side_by_side([VPLAY, "probe", "--demux", MEDIA], ["ffmpeg", "-nostdin", "-v", "error", "-i", MEDIA, "-c", "copy", "-f", "null", "-"])
row(f"demux {os.path.basename(MEDIA)} (wall)", f"{w_v * 1000:.0f} ms", f"ffmpeg -c copy {w_f * 1000:.0f} ms", f"{w_v / w_f:.2f}", "≤ 0.7")
row("demux peak RSS", f"{r_v:.1f} MiB", f"ffmpeg {r_f:.1f} MiB", f"{r_v / r_f:.2f}", "< 1")

# 3. A whole virtual-clock session (resolve, decode, state machine, every beacon planned) against its decode alone.
(w_s, w_d), (r_s, r_d) = side_by_side([VPLAY, "--vast", *TAG, "--dry-run", "--json"], [VPLAY, "probe", "--decode", MEDIA])
row(f"virtual-clock session, {AD} (wall)", f"{w_s * 1000:.0f} ms", f"its decode alone {w_d * 1000:.0f} ms", f"{w_s / w_d:.2f}", "≈ 1 (the session is its decode)")

# 4. Real time: how late boundary events fire (the engine's own measure), at --speed 1.
late, walls = [], []
for _ in range(max(1, RUNS // 2)):
    wall, _, out = run([VPLAY, "--vast", "media/demo.xml", "--speed", "1", "--dry-run", "--json"], capture=True)
    walls.append(wall)
    summary = json.loads(out.strip().splitlines()[-1])
    late.append(summary["lateness"]["p99"] * 1000)
row("real time: p99 boundary lateness, 10 s demo at --speed 1", f"{max(late):.3f} ms (worst run)", "target 5 ms", f"{max(late) / 5:.2f}", "< 1")
row("real time: wall time of the 10 s demo", f"{statistics.median(walls):.3f} s", "10.0 s", f"{statistics.median(walls) / 10:.3f}", "10.0–10.2 s")

# 5. Beacons per second through vplay's dispatcher and HTTP transport at the embedded sink (`vplay sink`, another
# process), against wrk on the same sink when wrk is installed.
errors = tempfile.NamedTemporaryFile(delete=False)
sink = subprocess.Popen([VPLAY, "sink", "--port", "0"], stdout=subprocess.DEVNULL, stderr=errors)
port = None
for _ in range(200):
    text = open(errors.name).read()
    if "127.0.0.1:" in text:
        port = text.split("127.0.0.1:")[1].split()[0].strip(" )")
        break
    time.sleep(0.05)
try:
    rates = []
    for n in range(max(1, RUNS // 2)):
        _, _, out = run([VPLAY, "beacon-load", "--url", f"http://127.0.0.1:{port}/bench?run={n}&cb=[CACHEBUSTING]", "--count", "20000",
                         "--concurrency", "64", "--json"], capture=True)
        rates.append(json.loads(out)["perSecond"])
    ours = statistics.median(rates)
    if shutil.which("wrk"):
        _, _, out = run(["wrk", "-t2", "-c64", "-d5s", f"http://127.0.0.1:{port}/wrk"], capture=True)
        wrk = float(out.split("Requests/sec:")[1].split()[0])
        row("beacons/s at the embedded sink (64 in flight)", f"{ours:.0f}/s", f"wrk {wrk:.0f}/s", f"{ours / wrk:.2f}", "≥ 5,000/s")
    else:
        row("beacons/s at the embedded sink (64 in flight)", f"{ours:.0f}/s", "target 5,000/s (wrk not installed)", f"{ours / 5000:.2f}", "≥ 5,000/s")
finally:
    sink.send_signal(signal.SIGINT)
    sink.wait()
    os.unlink(errors.name)

# 6. Fleet: SESSIONS sessions of the ad, every beacon to the embedded sink, three times (the median run by wall time
# is reported, with the range of beacons/s: client and sink share the machine, so runs vary), against
# --decode-each (a decode per session) on a hundredth of the sessions.
fleet = [VPLAY, "fleet", "--vast", *TAG, "--sink-all", "--seed", "1", "--concurrency", "32", "--json"]
fleet_runs = []
for _ in range(3):
    wall, peak, out = run(fleet + ["--sessions", str(SESSIONS)], capture=True)
    fleet_runs.append((wall, peak, json.loads(out)))
fleet_runs.sort(key=lambda r: r[0])
wall, _, report = fleet_runs[1]
peak = max(r[1] for r in fleet_runs)
rates = sorted(r[2]["performance"]["beaconsPerSecond"] for r in fleet_runs)
perf, population = report["performance"], report["population"]
sent = sum(b["sent"] for b in population["beacons"])
received = sum(b["received"] or 0 for b in population["beacons"])
few = max(50, SESSIONS // 100)
_, _, out_each = run(fleet + ["--sessions", str(few), "--decode-each"], capture=True)
each = json.loads(out_each)["performance"]
row(f"fleet: {SESSIONS} sessions of the {AD}, every beacon to the sink (median wall of 3)", f"{wall:.1f} s", "target 60 s", f"{wall / 60:.2f}", "< 60 s")
row("fleet: sessions/s", f"{perf['sessionsPerSecond']:.0f}/s", f"--decode-each ({few} sessions) {each['sessionsPerSecond']:.0f}/s",
    f"{perf['sessionsPerSecond'] / each['sessionsPerSecond']:.1f}", "decode once, play many")
row("fleet: beacons/s (sent / the fleet's run time, start-up and decode excluded; median run, range of 3)", f"{perf['beaconsPerSecond']:.0f}/s ({rates[0]:.0f}–{rates[-1]:.0f})",
    "target 5,000/s", f"{perf['beaconsPerSecond'] / 5000:.2f}", "≥ 5,000/s")
row(f"fleet: beacons expected / sent / received", f"{sent} sent, {received} received", f"{sum(b['expected'] for b in population['beacons'])} expected",
    "exact" if report["checks"]["sentAsExpected"] and report["checks"]["receivedAsSent"] else "DIFFERS", "exact")
row("fleet: beacon latency p50 / p99", f"{perf['beaconLatency']['p50'] * 1000:.2f} / {perf['beaconLatency']['p99'] * 1000:.2f} ms", "-", "-", "-")
row("fleet: peak RSS (highest of 3)", f"{peak / 1024:.1f} MiB", "target 200 MB", f"{peak / 1024 / 190.7:.2f}", "< 200 MB")

table()
