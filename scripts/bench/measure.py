#!/usr/bin/env python3
"""Runs commands side by side, several times each, and prints medians of wall time and peak RSS.

Used by scripts/bench-decode.sh. Each run is a fresh child process; its peak RSS comes from wait4()'s rusage
(ru_maxrss, KiB on Linux). Runs alternate between the commands so that machine load affects both alike.
"""
import json, os, statistics, subprocess, sys, time

def run_once(argv):
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.perf_counter() - started
    err = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"measure: {' '.join(argv)} failed ({code}): {err.strip()}")
    return elapsed, usage.ru_maxrss

def main():
    spec = json.loads(sys.argv[1])  # {"runs": N, "warmup": 1, "commands": {"name": [argv...]}}
    names = list(spec["commands"])
    results = {name: {"wall": [], "rss": []} for name in names}
    for _ in range(spec.get("warmup", 1)):
        for name in names:
            run_once(spec["commands"][name])
    for _ in range(spec["runs"]):
        for name in names:
            wall, rss = run_once(spec["commands"][name])
            results[name]["wall"].append(wall)
            results[name]["rss"].append(rss)
    summary = {name: {"wall": statistics.median(r["wall"]), "rss_kib": statistics.median(r["rss"]), "runs": len(r["wall"])}
               for name, r in results.items()}
    row = spec.get("row")  # [label, pass]: print a Markdown row comparing "vplay" with "ffmpeg"
    if row:
        v, f = summary["vplay"], summary["ffmpeg"]
        print(f"| {row[0]} | {row[1]} | {v['wall'] * 1000:.0f} ms | {f['wall'] * 1000:.0f} ms | {v['wall'] / f['wall']:.2f} "
              f"| {v['rss_kib'] / 1024:.1f} MiB | {f['rss_kib'] / 1024:.1f} MiB | {v['rss_kib'] / f['rss_kib']:.2f} |")
    else:
        print(json.dumps(summary))

main()
