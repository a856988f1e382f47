#!/usr/bin/env python3
"""`sollens report TRACE` end to end, as a user runs it: every default output.

    cli_bench.py [--sollens PATH] [--runs N] [--out DIR] TRACE...

Runs the whole process N times after one warm-up and prints, per trace, the wall
time (minimum and median), the CPU time of all its threads (user + system, from
wait4), the peak resident set, and the stage line `sollens report` prints (read,
inflate, parse, model, analyses, writers) of the median run. The machine's load
average is printed with it: on a busy machine wall times stretch, CPU times much less.
"""
import argparse
import os
import statistics
import subprocess
import time


def run_once(cmd):
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    cpu = usage.ru_utime + usage.ru_stime
    stages = next((l.strip() for l in err.splitlines() if l.strip().startswith("stages")), "")
    freed = next((l.strip() for l in err.splitlines() if l.strip().startswith("freed")), "")
    return wall, cpu, usage.ru_maxrss, stages, freed, os.waitstatus_to_exitcode(status)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sollens", default="build/native/sollens")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--out", default="build/bench/cli_report")
    ap.add_argument("traces", nargs="+")
    args = ap.parse_args()
    print("load average: %.1f %.1f %.1f on %d cores" % (*os.getloadavg(), os.cpu_count()))
    print("%-44s %8s %9s %9s %8s" % ("trace (sollens report, all outputs)", "min ms",
                                      "median ms", "CPU ms", "peak MB"))
    for trace in args.traces:
        cmd = [args.sollens, "report", trace, "--out", args.out]
        run_once(cmd)  # warm-up: page cache, first-touch costs
        runs = [run_once(cmd) for _ in range(args.runs)]
        if any(r[5] != 0 for r in runs):
            print("%s: sollens report failed" % trace)
            continue
        by_wall = sorted(runs, key=lambda r: r[0])
        median = by_wall[len(by_wall) // 2]
        name = os.path.basename(trace)
        name = name if len(name) <= 44 else name[:41] + "..."
        print("%-44s %8.1f %9.1f %9.1f %8.0f" % (
            name, by_wall[0][0] * 1e3, median[0] * 1e3,
            statistics.median(r[1] for r in runs) * 1e3, max(r[2] for r in runs) / 1e3))
        print("    " + median[3])
        print("    " + median[4])
    print("load average: %.1f %.1f %.1f" % os.getloadavg())


if __name__ == "__main__":
    main()
