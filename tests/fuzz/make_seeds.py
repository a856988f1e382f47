#!/usr/bin/env python3
"""Writes the seed corpora under tests/fuzz/corpus/<target>/ from slices of real traces.

Each Kineto seed is a valid trace: the file's own top-level members (deviceProperties,
distributedInfo, ...) and a few events that belong together (a GPU kernel, the runtime
call that launched it, the CPU ops around the call, their flow events, the process and
thread names). Execution Trace seeds keep a few nodes with their parents; report seeds
keep a few rows of each sheet of a report.json that `sollens report` wrote.

  python3 tests/fuzz/make_seeds.py TRACE_DIR... [--reports REPORT_JSON...]
"""
import argparse
import gzip
import hashlib
import json
import pathlib
import random
import zlib

HERE = pathlib.Path(__file__).resolve().parent
MAX_SEED = 8000  # bytes; the targets run with -max_len (targets.txt) above this


def read_json(path):
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return json.loads(raw)


def kineto_text(doc, style):
    """The document as Kineto writes it (one event per block) or compact."""
    if style == "compact":
        return json.dumps(doc, separators=(",", ":"))
    head = {k: v for k, v in doc.items() if k != "traceEvents"}
    parts = ["{"]
    for key, value in head.items():
        parts.append(f'  {json.dumps(key)}: {json.dumps(value)},')
    parts.append('  "traceEvents": [')
    events = [
        "  {\n    " + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in e.items()) + "\n  }"
        for e in doc["traceEvents"]
    ]
    parts.append(",\n".join(events))
    parts.append("]}")
    return "\n".join(parts) + "\n"


def kineto_slices(doc, rng, count):
    events = doc.get("traceEvents") or []
    head = {k: v for k, v in doc.items() if k != "traceEvents"}
    meta = [e for e in events if e.get("ph") == "M"][:6]
    gpu = [e for e in events if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    by_corr = {}
    for e in events:
        corr = (e.get("args") or {}).get("correlation")
        if corr is not None and e.get("cat") in ("cuda_runtime", "cuda_driver", "hip_runtime"):
            by_corr.setdefault(corr, e)
    flows = {}
    for e in events:
        if e.get("ph") in ("s", "f", "t"):
            flows.setdefault(e.get("id"), []).append(e)
    cpu = [e for e in events if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "user_annotation",
                                                                       "python_function")]
    out = []
    for _ in range(count):
        picked = []
        for kernel in rng.sample(gpu, min(len(gpu), 2)) if gpu else []:
            picked.append(kernel)
            corr = (kernel.get("args") or {}).get("correlation")
            launch = by_corr.get(corr)
            if launch:
                picked.append(launch)
                ts = launch.get("ts", 0)
                around = [c for c in cpu if c.get("tid") == launch.get("tid")
                          and c.get("ts", 0) <= ts <= c.get("ts", 0) + c.get("dur", 0)]
                picked += around[-4:]
            picked += flows.get(corr, [])[:2]
        if not picked and events:
            start = rng.randrange(len(events))
            picked = events[start:start + 8]
        seen, unique = set(), []
        for e in meta + picked:
            if id(e) not in seen:
                seen.add(id(e))
                unique.append(e)
        out.append(dict(head, traceEvents=unique))
    return out


def et_slices(doc, rng, count):
    nodes = doc.get("nodes") or []
    head = {k: v for k, v in doc.items() if k != "nodes"}
    by_id = {n.get("id"): n for n in nodes}
    out = []
    for _ in range(count):
        picked = {}
        for node in rng.sample(nodes, min(len(nodes), 3)):
            while node is not None and node.get("id") not in picked and len(picked) < 10:
                picked[node.get("id")] = node
                node = by_id.get(node.get("parent", node.get("ctrl_deps")))
        out.append(dict(head, nodes=sorted(picked.values(), key=lambda n: n.get("id", 0))))
    return out


def report_slices(doc, rng, count):
    out = []
    sheets = doc.get("sheets")
    for _ in range(count):
        cut = dict(doc)
        if isinstance(sheets, dict):
            names = rng.sample(sorted(sheets), min(len(sheets), 3))
            cut["sheets"] = {n: trim_sheet(sheets[n]) for n in names}
        elif isinstance(sheets, list):
            cut["sheets"] = [trim_sheet(s) for s in rng.sample(sheets, min(len(sheets), 3))]
        out.append(cut)
    return out


def trim_sheet(sheet):
    if isinstance(sheet, list):
        return sheet[:3]
    if isinstance(sheet, dict):
        return {k: (v[:3] if isinstance(v, list) else v) for k, v in sheet.items()}
    return sheet


def gzip_bytes(text):
    compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
    return compressor.compress(text) + compressor.flush()


def write(target, data):
    folder = HERE / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("traces", nargs="+", type=pathlib.Path)
    parser.add_argument("--reports", nargs="*", type=pathlib.Path, default=[])
    args = parser.parse_args()
    rng = random.Random(2026)
    files = sorted({p for d in args.traces for p in (d.rglob("*.json*") if d.is_dir() else [d])
                    if "report" not in str(p)})
    for path in files:
        try:
            doc = read_json(path)
        except (ValueError, OSError):
            continue
        if not isinstance(doc, dict):
            continue
        if "nodes" in doc:
            for cut in et_slices(doc, rng, 6):
                text = json.dumps(cut, indent=rng.choice([None, 2])).encode()
                if len(text) <= MAX_SEED:
                    write("fuzz_execution_trace", text)
            continue
        if "traceEvents" not in doc:
            continue
        for i, cut in enumerate(kineto_slices(doc, rng, 2)):
            text = kineto_text(cut, "kineto" if i == 0 else "compact").encode()
            if len(text) > MAX_SEED:
                continue
            write("fuzz_kineto_load", text)
            write("fuzz_kineto_windowed", text + bytes(rng.randrange(256) for _ in range(8)))
            write("fuzz_gzip", gzip_bytes(text) if i == 0 else text)
            write("fuzz_report_build", text + bytes([rng.randrange(256)]))
    for path in args.reports:
        doc = read_json(path)
        for cut in report_slices(doc, rng, 6):
            text = json.dumps(cut, indent=rng.choice([None, 1])).encode()
            if len(text) <= 12000:
                write("fuzz_report_reader", text)


if __name__ == "__main__":
    main()
