#!/usr/bin/env python3
"""Write a synthetic set of rank traces for the many-ranks benchmark.

Every rank repeats the real events of one DLRM rank (tests/fixtures/traces/
param-dlrm-v100-8rank, worker0: CPU ops, runtime calls, kernels, flows) until its
file reaches --mb megabytes: repeat k is shifted by k * PERIOD_US and its ids
(External id, correlation, flow id, Ev Idx) by k * ID_STRIDE, so links stay unique.
distributedInfo.rank names the rank.

One rank (--straggler) is planted: each of its NCCL kernels starts DELAY_US later and
ends at the same time, as a rank that reaches every collective last does. All ranks
are otherwise identical, so every other rank waits exactly DELAY_US in each
collective, and the straggler never waits.

usage: make_rank_set.py OUT_DIR [--ranks 8] [--mb 1000] [--straggler 5] [--jobs 2]
Prints the number of collectives per rank and the delay, for the check.
"""
import argparse
import gzip
import json
import os
import re
from concurrent.futures import ProcessPoolExecutor
from itertools import chain

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, "..", "fixtures", "traces", "param-dlrm-v100-8rank",
                      "worker0_step_12.1694128201545.pt.trace.json.gz")
PERIOD_US = 20000  # the source step spans 16.4 ms
ID_STRIDE = 100000  # above the source's largest id (44096)
DELAY_US = 100  # below the shortest NCCL kernel (131 µs), so it still has a duration
ID_KEYS = ("External id", "correlation", "Ev Idx")
SLOT = re.compile(r'"@@(ts|id)(-?\d+)@@"')


def is_nccl_kernel(e):
    return e.get("cat") == "kernel" and "nccl" in e.get("name", "").lower()


def plant_straggler(events):
    """NCCL kernels start DELAY_US later and end as before; their flow ends follow."""
    moved = set()
    for e in events:
        if is_nccl_kernel(e):
            e["ts"] += DELAY_US
            e["dur"] -= DELAY_US
            moved.add(e["args"]["correlation"])
    for e in events:
        if e.get("ph") == "f" and e.get("id") in moved:
            e["ts"] += DELAY_US


def template(events):
    """The repeated events as text pieces with numbered slots for ts and ids."""
    lines = []
    for e in events:
        e = json.loads(json.dumps(e))
        e["ts"] = "@@ts%d@@" % e["ts"]
        if "id" in e:
            e["id"] = "@@id%d@@" % e["id"]
        for key in ID_KEYS:
            if key in e.get("args", {}):
                e["args"][key] = "@@id%d@@" % e["args"][key]
        lines.append(json.dumps(e))
    text = ",\n".join(lines)
    parts, slots = [], []
    at = 0
    for m in SLOT.finditer(text):
        parts.append(text[at:m.start()])
        slots.append((int(m.group(2)), PERIOD_US if m.group(1) == "ts" else ID_STRIDE))
        at = m.end()
    parts.append(text[at:])
    return parts, slots


def write_rank(out_dir, rank, ranks, target_bytes, straggler):
    with gzip.open(SOURCE, "rt") as f:
        trace = json.load(f)
    events = trace.pop("traceEvents")
    once = [e for e in events if e.get("ph") not in ("X", "s", "f") or e.get("cat") == "Trace"]
    repeated = [e for e in events if e not in once]
    if rank == straggler:
        plant_straggler(repeated)
    trace["distributedInfo"] = dict(trace.get("distributedInfo", {}), rank=rank, world_size=ranks)
    parts, slots = template(repeated)
    path = os.path.join(out_dir, "rank%d.json" % rank)
    with open(path, "w") as out:
        head = json.dumps(trace)[:-1]  # without the closing brace
        out.write(head + ', "traceEvents": [\n' + ",\n".join(json.dumps(e) for e in once))
        k = 0
        while out.tell() < target_bytes:
            values = [str(base + k * step) for base, step in slots]
            out.write(",\n" + "".join(chain.from_iterable(zip(parts, values))) + parts[-1])
            k += 1
        out.write("\n]}\n")
    nccl = sum(1 for e in repeated if is_nccl_kernel(e))
    return path, k, k * nccl


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out_dir")
    p.add_argument("--ranks", type=int, default=8)
    p.add_argument("--mb", type=float, default=1000, help="size of each rank's file, in 10^6 bytes")
    p.add_argument("--straggler", type=int, default=5)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    with ProcessPoolExecutor(max_workers=a.jobs) as pool:
        futures = [pool.submit(write_rank, a.out_dir, r, a.ranks, int(a.mb * 1e6), a.straggler) for r in range(a.ranks)]
        results = [f.result() for f in futures]
    for path, repeats, collectives in results:
        print("%s: %d repeats, %d NCCL kernels, %.0f MB" % (path, repeats, collectives, os.path.getsize(path) / 1e6))
    print("straggler rank %d, delay %d us, %d collectives per rank" % (a.straggler, DELAY_US, results[0][2]))


if __name__ == "__main__":
    main()
