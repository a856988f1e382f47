#!/usr/bin/env python3
"""Runs every sollens command over every trace under the given folders, for a
sanitizer build (ASan + UBSan), and fails on any sanitizer report, crash or timeout.

usage: all_traces.py SOLLENS DIR [DIR ...] [--timeout S] [--max-mb MB] [--work DIR]

Files are recognised by content, not by name: a Kineto trace has "traceEvents"
(or is a bare array of trace events), an Execution Trace has "schema" and "nodes",
a stored report.json has sollens's "metadata"/"generator" header. Every .json and
.json.gz file gets a line; one that is none of these still gets `sollens info` (its
error path is exercised too). A non-zero exit with no sanitizer output is an
ordinary error the user caused and passes; only sanitizer reports, signals and
timeouts fail. The CLI's wording is never read.
"""
import argparse
import gzip
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

SANITIZER_MARKERS = re.compile(
    rb"ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:|"
    rb"SUMMARY: UndefinedBehaviorSanitizer|SUMMARY: AddressSanitizer|"
    rb"ERROR: UndefinedBehaviorSanitizer")
# A distinct exit status for the sanitizers: sollens itself uses 1..4.
SANITIZER_EXIT = 86
ASAN_OPTIONS = f"detect_leaks=1:abort_on_error=0:halt_on_error=1:exitcode={SANITIZER_EXIT}"
UBSAN_OPTIONS = f"print_stacktrace=1:halt_on_error=1:exitcode={SANITIZER_EXIT}"
HEAD_BYTES = 1 << 20
GPU_EVENT = re.compile(rb'"cat"\s*:\s*"(kernel|Kernel|gpu_memcpy|gpu_memset|Memcpy|Memset)"')
RANK = re.compile(rb'"distributedInfo"\s*:\s*\{[^}]*?"rank"\s*:\s*(\d+)')


@dataclass
class Trace:
    path: str
    kind: str            # kineto | et | report | other
    mb_on_disk: float
    mb_json: float = 0.0
    has_gpu: bool = False
    pid: int | None = None         # an ET's pid
    pids: set = field(default_factory=set)  # a Kineto trace's event pids
    rank: int | None = None
    note: str = ""


def open_text(path):
    with open(path, "rb") as f:
        gz = f.read(2) == b"\x1f\x8b"
    return gzip.open(path, "rb") if gz else open(path, "rb")


def scan(path):
    """Classifies one file by its bytes, streaming it once."""
    size = os.path.getsize(path) / 1e6
    trace = Trace(path, "other", size)
    try:
        with open_text(path) as f:
            head = f.read(HEAD_BYTES)
            total, has_gpu, pids, tail = len(head), bool(GPU_EVENT.search(head)), set(), b""
            pid_re = re.compile(rb'"pid"\s*:\s*"?(-?\d+)')
            pids.update(int(p) for p in pid_re.findall(head[:HEAD_BYTES]))
            # Stream the rest only for Kineto traces (GPU events and pids).
            stripped = head.lstrip()
            is_et = b'"schema"' in head[:4096] and b'"nodes"' in head[:65536]
            is_report = re.match(rb'\{\s*"metadata"\s*:\s*\{\s*"generator"\s*:\s*"sollens', stripped) is not None
            is_kineto = (not is_et and not is_report and
                         (b'"traceEvents"' in head or
                          (stripped.startswith(b"[") and b'"ph"' in head[:65536])))
            if is_kineto:
                tail = head[-256:]
                while True:
                    chunk = f.read(8 << 20)
                    if not chunk:
                        break
                    total += len(chunk)
                    window = tail + chunk
                    if not has_gpu and GPU_EVENT.search(window):
                        has_gpu = True
                    if len(pids) < 64:
                        pids.update(int(p) for p in pid_re.findall(window))
                    tail = chunk[-256:]
                m = RANK.search(head)
                trace.rank = int(m.group(1)) if m else None
            else:
                total += sum(len(c) for c in iter(lambda: f.read(8 << 20), b""))
    except (OSError, EOFError, gzip.BadGzipFile, ValueError) as err:
        trace.kind = "other"
        trace.note = f"unreadable ({err})"
        return trace
    trace.mb_json = total / 1e6
    if is_et:
        trace.kind = "et"
        m = re.search(rb'"pid"\s*:\s*(\d+)', head[:4096])
        trace.pid = int(m.group(1)) if m else None
    elif is_report:
        trace.kind = "report"
    elif is_kineto:
        trace.kind, trace.has_gpu, trace.pids = "kineto", has_gpu, pids
    return trace


class Runner:
    def __init__(self, sollens, timeout, work):
        self.sollens, self.timeout, self.work = sollens, timeout, work
        self.rows, self.findings, self.count = [], [], 0
        self.env = dict(os.environ, ASAN_OPTIONS=ASAN_OPTIONS, UBSAN_OPTIONS=UBSAN_OPTIONS)

    def run(self, label, mb, args):
        self.count += 1
        out = os.path.join(self.work, f"cmd{self.count:04d}")
        os.makedirs(out)
        argv = [self.sollens] + [a.replace("{OUT}", out) for a in args]
        start = time.monotonic()
        with open(os.path.join(out, "stdout"), "wb") as so, open(os.path.join(out, "stderr"), "wb") as se:
            proc = subprocess.Popen(argv, stdout=so, stderr=se, env=self.env, start_new_session=True)
            try:
                rc = proc.wait(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                rc = None
        seconds = time.monotonic() - start
        with open(os.path.join(out, "stderr"), "rb") as se:
            err = se.read()
        if rc is None:
            result = f"FAIL timeout after {self.timeout:.0f} s"
        elif SANITIZER_MARKERS.search(err) or rc == SANITIZER_EXIT:
            result = "FAIL sanitizer report"
        elif rc < 0:
            result = f"FAIL signal {-rc} ({signal.Signals(-rc).name})"
        elif rc == 0:
            result = "ok"
        else:
            result = f"ok (exit {rc}, no sanitizer output)"
        command = " ".join(["sollens"] + [short_path(a) for a in args])
        line = f"{label:<60} {mb:8.1f} MB  {command[:110]:<110} {seconds:8.1f} s  {result}"
        print(line, flush=True)
        self.rows.append((label, mb, seconds, result))
        if result.startswith("FAIL"):
            self.findings.append((line, argv, err))
            sys.stdout.write(self.excerpt(err))
        return result, out

    @staticmethod
    def excerpt(err):
        text = err.decode("utf-8", "replace")
        m = SANITIZER_MARKERS.search(err)
        start = text.find(m.group(0).decode()) if m else max(0, len(text) - 3000)
        return "    | " + text[max(0, start - 200):start + 4000].replace("\n", "\n    | ") + "\n"


def short_path(arg):
    if not os.path.exists(arg):
        return arg
    rel = os.path.relpath(arg)
    return arg if rel.startswith("..") else rel


def find_files(dirs):
    found = []
    for top in dirs:
        for root, subdirs, files in os.walk(top):
            subdirs.sort()
            for name in sorted(files):
                if name.endswith(".json") or name.endswith(".json.gz"):
                    found.append(os.path.join(root, name))
    return found


def label_of(path):
    parts = os.path.normpath(path).split(os.sep)
    return os.sep.join(parts[-2:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sollens")
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per command (default 900)")
    ap.add_argument("--max-mb", type=float, default=None,
                    help="skip (with a printed line) traces whose JSON is larger than this")
    ap.add_argument("--work", default=None, help="scratch folder (default: a temp folder, removed)")
    opts = ap.parse_args()
    sollens = os.path.abspath(opts.sollens)
    if not os.access(sollens, os.X_OK):
        sys.exit(f"all_traces: {opts.sollens} is not an executable")
    work = opts.work or tempfile.mkdtemp(prefix="sollens-sanitize-")
    os.makedirs(work, exist_ok=True)
    runner = Runner(sollens, opts.timeout, work)
    wall = time.monotonic()

    print(f"ASAN_OPTIONS={ASAN_OPTIONS}\nUBSAN_OPTIONS={UBSAN_OPTIONS}", flush=True)
    traces = [scan(p) for p in find_files(opts.dirs)]
    skipped = []

    def too_big(t):
        if opts.max_mb is not None and t.mb_json > opts.max_mb:
            skipped.append(t)
            print(f"{label_of(t.path):<60} {t.mb_json:8.1f} MB  SKIP: JSON larger than --max-mb {opts.max_mb:g}"
                  " (left to the full run)", flush=True)
            return True
        return False

    kinetos = [t for t in traces if t.kind == "kineto"]
    reports = {}
    for t in traces:
        lbl, mb = label_of(t.path), t.mb_json
        if t.kind == "other":
            print(f"{lbl:<60} {mb:8.1f} MB  not a Kineto trace, ET or report.json"
                  f"{' (' + t.note + ')' if t.note else ''}: sollens info only (any exit status passes)",
                  flush=True)
            runner.run(lbl, mb, ["info", t.path])
            continue
        if too_big(t):
            continue
        if t.kind == "kineto":
            runner.run(lbl, mb, ["info", t.path])
            _, out = runner.run(lbl, mb, ["report", t.path, "--out", "{OUT}"])
            if os.path.exists(os.path.join(out, "report.json")):
                reports[t.path] = os.path.join(out, "report.json")
            runner.run(lbl, mb, ["cycles", t.path, "--out", "{OUT}"])
            if t.has_gpu:
                runner.run(lbl, mb, ["sol", t.path, "--out", "{OUT}"])
            else:
                print(f"{lbl:<60} {mb:8.1f} MB  sollens sol SKIP: no GPU kernel, memcpy or memset event", flush=True)
        elif t.kind == "et":
            runner.run(lbl, mb, ["solar", t.path, "--out", "{OUT}"])
            # Paired by content: a Kineto trace in the same folder from the ET's process.
            paired = [k for k in kinetos if os.path.dirname(k.path) == os.path.dirname(t.path)
                      and t.pid is not None and t.pid in k.pids]
            for k in paired:
                if opts.max_mb is not None and k.mb_json > opts.max_mb:
                    print(f"{lbl:<60} {mb:8.1f} MB  solar --kineto {os.path.basename(k.path)} SKIP: Kineto JSON"
                          f" larger than --max-mb {opts.max_mb:g} (left to the full run)", flush=True)
                    continue
                runner.run(lbl, mb + k.mb_json, ["solar", t.path, "--kineto", k.path, "--out", "{OUT}"])
            if not paired:
                print(f"{lbl:<60} {mb:8.1f} MB  solar --kineto SKIP: no Kineto trace from pid {t.pid} beside it",
                      flush=True)
        elif t.kind == "report":
            runner.run(lbl, mb, ["diff", t.path, t.path, "--out", "{OUT}"])

    run_diff(runner, [k for k in kinetos if k not in skipped], reports)
    run_multi_rank(runner, [k for k in kinetos if k not in skipped])

    wall = time.monotonic() - wall
    counts = {}
    for t in traces:
        counts[t.kind] = counts.get(t.kind, 0) + 1
    disk = sum(t.mb_on_disk for t in traces) / 1e3
    js = sum(t.mb_json for t in traces) / 1e3
    print("\nsummary")
    print(f"  files: {len(traces)} ({', '.join(f'{v} {k}' for k, v in sorted(counts.items()))}),"
          f" {disk:.3f} GB on disk, {js:.3f} GB of JSON; {len(skipped)} skipped by --max-mb")
    print(f"  commands: {len(runner.rows)}, wall time {wall:.0f} s"
          f" ({sum(r[2] for r in runner.rows):.0f} s in sollens)")
    slowest = sorted(runner.rows, key=lambda r: -r[2])[:5]
    print("  slowest: " + "; ".join(f"{r[0]} {r[2]:.0f} s" for r in slowest))
    print(f"  findings: {len(runner.findings)}")
    for line, argv, _ in runner.findings:
        print(f"    {line}\n      {' '.join(argv)}")
    if runner.findings:
        print(f"  logs of the failing commands are kept under {work}")
    elif not opts.work:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if runner.findings else 0


def run_diff(runner, kinetos, reports):
    """One pair: the only two Kineto traces of a folder (two runs), else the two largest with GPU work."""
    by_dir = {}
    for k in kinetos:
        by_dir.setdefault(os.path.dirname(k.path), []).append(k)
    pair = next((v for v in by_dir.values() if len(v) == 2 and all(k.has_gpu for k in v)), None)
    if pair is None:
        pair = sorted((k for k in kinetos if k.has_gpu), key=lambda k: -k.mb_json)[:2]
    if len(pair) < 2:
        print("sollens diff SKIP: fewer than two Kineto traces", flush=True)
        return
    a, b = pair
    lbl = f"{label_of(a.path)} vs {os.path.basename(b.path)}"
    runner.run(lbl, a.mb_json + b.mb_json, ["diff", a.path, b.path, "--out", "{OUT}",
                                            "--markdown", "{OUT}/summary.md", "--junit", "{OUT}/junit.xml",
                                            "--fail-if", "total time > +5%"])
    if a.path in reports and b.path in reports:
        runner.run(lbl + " (report.json)", 0.0, ["diff", reports[a.path], reports[b.path], "--out", "{OUT}"])
    else:
        print(f"{lbl}: diff of report.json SKIP: a report of the pair was not written", flush=True)


def run_multi_rank(runner, kinetos):
    """`sollens report DIR` on every folder holding the traces of two or more ranks."""
    by_dir = {}
    for k in kinetos:
        if k.rank is not None:
            by_dir.setdefault(os.path.dirname(k.path), []).append(k)
    folders = [d for d, ks in sorted(by_dir.items()) if len({k.rank for k in ks}) >= 2]
    if not folders:
        print("sollens report DIR SKIP: no folder holds traces of two or more ranks", flush=True)
    for d in folders:
        ks = by_dir[d]
        runner.run(os.path.basename(d) + f"/ ({len(ks)} ranks)", sum(k.mb_json for k in ks),
                   ["report", d, "--out", "{OUT}"])


if __name__ == "__main__":
    sys.exit(main())
