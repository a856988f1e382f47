#!/usr/bin/env python3
"""The many-ranks benchmark: `sollens report DIR` on a synthetic rank set, with its
wall time and peak resident memory, and the planted straggler checked.

The set (make_rank_set.py: --ranks files of --mb MB, real DLRM events, rank --straggler
planted 100 us late at every collective) is written once into --dir and reused while
its parameters are the same. Peak memory is the report process's ru_maxrss.

usage: ranks_bench.py SOLLENS [--dir build/bench/ranks-8x1gb] [--ranks 8] [--mb 1000]
                      [--max-memory 1500] [--target-mb 1500]
Exits 1 when the straggler is wrong or the peak passes --target-mb.
"""
import argparse
import csv
import json
import os
import resource
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
STRAGGLER = 5


def ensure_rank_set(args):
    stamp = os.path.join(args.dir, ".rank-set")  # not *.json: the folder is read as traces
    params = {"ranks": args.ranks, "mb": args.mb, "straggler": STRAGGLER,
              "generator": os.path.getmtime(os.path.join(HERE, "make_rank_set.py"))}
    if os.path.exists(stamp):
        with open(stamp) as f:
            if json.load(f) == params:
                return
    shutil.rmtree(args.dir, ignore_errors=True)
    print(f"ranks bench: writing {args.ranks} ranks x {args.mb:g} MB into {args.dir}", flush=True)
    subprocess.run([sys.executable, os.path.join(HERE, "make_rank_set.py"), args.dir, "--ranks", str(args.ranks),
                    "--mb", str(args.mb), "--straggler", str(STRAGGLER)], check=True)
    with open(stamp, "w") as f:
        json.dump(params, f)


def check_straggler(report_dir, ranks):
    with open(os.path.join(report_dir, "straggler_summary.csv")) as f:
        rows = list(csv.DictReader(f))
    problems = []
    if len(rows) != ranks:
        problems.append(f"{len(rows)} ranks in straggler_summary, expected {ranks}")
    if not rows or int(rows[0]["rank"]) != STRAGGLER or float(rows[0]["total_wait_time_us"]) != 0:
        problems.append(f"row 1 is not the planted straggler {STRAGGLER} with no wait: {rows[:1]}")
    # Every other rank waits the planted 100 us at each collective.
    for r in rows[1:]:
        expected = 100.0 * int(r["num_collectives"])
        if float(r["total_wait_time_us"]) != expected:
            problems.append(f"rank {r['rank']} waits {r['total_wait_time_us']} us, expected {expected:g}")
    return problems


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("sollens")
    p.add_argument("--dir", default="build/bench/ranks-8x1gb")
    p.add_argument("--ranks", type=int, default=8)
    p.add_argument("--mb", type=float, default=1000)
    p.add_argument("--max-memory", type=float, default=1500, help="sollens report --max-memory (MB)")
    p.add_argument("--target-mb", type=float, default=1500, help="the peak resident memory allowed (MB)")
    a = p.parse_args()
    ensure_rank_set(a)
    out = a.dir + "-report"
    shutil.rmtree(out, ignore_errors=True)
    command = [a.sollens, "report", a.dir, "--out", out, "--no-xlsx", "--max-memory", f"{a.max_memory:g}"]
    print("ranks bench: " + " ".join(command), flush=True)
    start = time.monotonic()
    run = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - start
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024 / 1e6
    summary = [line for line in run.stderr.splitlines() if "at a time" in line or "straggler" in line]
    print("\n".join(summary))
    if run.returncode != 0:
        print(run.stderr[-2000:])
        print(f"ranks bench: FAILED: sollens exited {run.returncode}")
        return 1
    size_gb = sum(os.path.getsize(os.path.join(a.dir, f)) for f in os.listdir(a.dir) if f.endswith(".json")) / 1e9
    print(f"ranks bench: {a.ranks} ranks, {size_gb:.2f} GB of JSON: {seconds:.1f} s, peak resident {peak_mb:.0f} MB "
          f"(target {a.target_mb:g} MB), {os.cpu_count()} cores")
    problems = check_straggler(out, a.ranks)
    if peak_mb > a.target_mb:
        problems.append(f"peak resident {peak_mb:.0f} MB passes the {a.target_mb:g} MB target")
    for problem in problems:
        print("ranks bench: FAILED: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
