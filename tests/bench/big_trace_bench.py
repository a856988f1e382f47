#!/usr/bin/env python3
"""Time and memory of `sollens report` on synthetic traces of 1, 2, 4 and 8 GB.

    big_trace_bench.py [--sollens PATH] [--source TRACE] [--sizes-mb 1000,2000,...] [--dir DIR]

For each size: make_big_trace.py writes the trace (real events, shifted copies),
`sollens report` runs on it --runs times (every default output), and this prints the
median wall time, MB/s of JSON, and the largest peak anonymous memory (RssAnon of
/proc/PID/status, sampled every 10 ms: memory the process owns, not the file's
page-cache pages it maps) and peak resident set (VmHWM: both). The trace and the
report are deleted after.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def status_kb(pid, field):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_sampled(cmd):
    """Runs cmd; returns (wall s, CPU s, peak RssAnon kB, VmHWM kB, stderr, exit code)."""
    start = time.monotonic()
    err = open(os.path.join(os.path.dirname(cmd[-1]), "stderr.txt"), "w+")
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
    peak_anon = hwm = 0
    while True:  # sample until it ends; wait4 gives its CPU time
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak_anon = max(peak_anon, status_kb(proc.pid, "RssAnon"))
        hwm = max(hwm, status_kb(proc.pid, "VmHWM"))
        time.sleep(0.01)
    seconds = time.monotonic() - start
    err.seek(0)
    text = err.read()
    err.close()
    return (seconds, usage.ru_utime + usage.ru_stime, peak_anon, hwm, text,
            os.waitstatus_to_exitcode(status))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sollens", default="build/native/sollens")
    ap.add_argument("--source", default="tests/fixtures/traces/tracelens-h100-owlv2-large/"
                    "google_owlv2-large-patch14-ensemble__1016001.json.gz")
    ap.add_argument("--sizes-mb", default="1000,2000,4000,8000")
    ap.add_argument("--dir", default="build/bench")
    ap.add_argument("--runs", type=int, default=3, help="runs per size; the median wall is printed")
    ap.add_argument("--compact", action="store_true",
                    help="events one a line without spaces (make_big_trace.py --compact)")
    args = ap.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    print("%9s %10s %8s %8s %8s %10s %13s %9s %11s" % (
        "JSON MB", "events", "wall s", "MB/s", "CPU s", "MB/CPU s", "peak anon MB", "anon/JSON",
        "peak RSS MB"))
    for size_mb in [float(s) for s in args.sizes_mb.split(",")]:
        free_mb = shutil.disk_usage(args.dir).free / 1e6
        if free_mb < size_mb * 1.3 + 2000:
            print("%9.0f skipped: %.0f MB free on disk" % (size_mb, free_mb))
            continue
        trace = os.path.join(args.dir, "big_%d.json" % size_mb)
        out = os.path.join(args.dir, "big_%d_report" % size_mb)
        try:
            subprocess.run([sys.executable, os.path.join(HERE, "make_big_trace.py"), args.source,
                            trace, str(size_mb)] + (["--compact"] if args.compact else []),
                           check=True, stdout=subprocess.DEVNULL)
            json_mb = os.path.getsize(trace) / 1e6
            # The file at rest, as a user's is: written back to disk (else the kernel flushes
            # gigabytes of dirty pages during the first run) and in the page cache.
            os.sync()
            subprocess.run(["cat", trace], stdout=subprocess.DEVNULL, check=True)
            runs = sorted((run_sampled([args.sollens, "report", trace, "--out", out])
                           for _ in range(max(1, args.runs))), key=lambda r: r[0])
            seconds, cpu, anon, hwm, err, rc = runs[len(runs) // 2]
            anon = max(r[2] for r in runs)  # the worst peak of all runs
            hwm = max(r[3] for r in runs)
            if any(r[5] != 0 for r in runs):
                rc = next(r[5] for r in runs if r[5] != 0)
                err = next(r[4] for r in runs if r[5] != 0)
            if rc != 0:
                print("%9.0f sollens failed (%d): %s" % (json_mb, rc, err.strip()[-300:]))
                continue
            events = next((l.split(": ", 2)[2].split()[0] for l in err.splitlines()
                           if l.startswith("sollens: ") and " events, " in l), "?")
            print("%9.0f %10s %8.2f %8.0f %8.2f %10.0f %13.0f %9.2f %11.0f" % (
                json_mb, events, seconds, json_mb / seconds, cpu, json_mb / cpu, anon / 1e3,
                anon / 1e3 / json_mb, hwm / 1e3))
            stages = [l.strip() for l in err.splitlines() if l.strip().startswith("stages")]
            if stages:
                print("          " + stages[0])
            sys.stdout.flush()
        finally:
            if os.path.exists(trace):
                os.remove(trace)
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
