#!/usr/bin/env python3
"""Compare a `sollens report` output folder with an HTA reference folder, CSV by CSV.

usage: compare_hta.py OURS_DIR REF_DIR [--rank N] [--critical-path-rank N] [--rel 1e-6] [--sheets a,b,c] [--quiet]

For every CSV of REF_DIR (<sheet>.csv or <sheet>.csv.gz), or only those named, OURS_DIR
must have <sheet>.csv with the same header, in the same order. Rows are compared in order
(HTA's order is reproduced), a cell matching when equal, when both are numbers within the
relative tolerance, or when both are empty (pandas writes NaN as an empty cell, sollens
writes null so); a reference without rows may lack the leading index columns (pandas
leaves them out of an empty group-by's summary). critical_path_breakdown is compared on s_name, type, duration, pid, tid,
stream and bound_by only, as a multiset: its event_idx, index and cat are HTA's internal
ids. With --rank N (a multi-rank reference such as DLRM's, with OURS_DIR the report of
rank N's trace), a reference with a rank column keeps rank N's rows; one without is HTA's
over every rank and is only listed, and the critical-path CSVs (one rank's path) are
compared only for --critical-path-rank (default 0). REF_DIR/failures.txt's analyses (HTA raised there)
must each have a CSV with rows in OURS_DIR.

Prints per CSV: OK or DIFF with rows matched / reference rows and the first difference;
then 'sheets matching: K/N'. Exit 0 iff every compared CSV matches.
"""
import argparse
import csv
import gzip
import io
import math
import os
import sys

CRITICAL_PATH_KEYS = ["s_name", "type", "duration", "pid", "tid", "stream", "bound_by"]
csv.field_size_limit(1 << 30)


def read_rows(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def number(cell):
    try:
        return float(cell)
    except ValueError:
        return None


def same_cell(ours, ref, rel):
    if ours == ref:
        return True
    x, y = number(ours), number(ref)
    if x is None or y is None:
        return False
    if math.isnan(x) and math.isnan(y):
        return True
    return abs(x - y) <= rel * max(abs(x), abs(y)) + 1e-9


def canonical(cell):
    """One spelling per number ("-1.0" and "-1" alike; 12 significant digits)."""
    v = number(cell)
    return cell if v is None or math.isnan(v) else "%.12g" % v


def reference_sheets(ref_dir):
    sheets = {}
    for name in sorted(os.listdir(ref_dir)):
        for ext in (".csv", ".csv.gz"):
            if name.endswith(ext):
                sheets[name[: -len(ext)]] = os.path.join(ref_dir, name)
    return sheets


def rows_of_rank(header, rows, rank):
    if rank is None or "rank" not in header:
        return rows
    c = header.index("rank")
    return [r for r in rows if number(r[c]) == rank]


def compare_in_order(header, ours, ref, rel):
    """(rows matched, first difference or '')."""
    matched, first = 0, ""
    for i, r in enumerate(ref):
        o = ours[i] if i < len(ours) else None
        bad = None
        if o is None or len(o) != len(r):
            bad = "row %d: %s" % (i + 1, "missing" if o is None else "cell count")
        else:
            for c, (a, b) in enumerate(zip(o, r)):
                if not same_cell(a, b, rel):
                    bad = "row %d column %r: %r vs %r" % (i + 1, header[c], a[:60], b[:60])
                    break
        if bad is None:
            matched += 1
        elif not first:
            first = bad
    if not first and len(ours) != len(ref):
        first = "rows %d vs reference %d" % (len(ours), len(ref))
    return matched, first


def project(header, rows, keys):
    cols = [header.index(k) if k in header else None for k in keys]
    return [tuple("<no column>" if c is None else canonical(r[c]) for c in cols) for r in rows]


def compare_as_multiset(header_o, ours, header_r, ref, keys):
    left = {}
    for row in project(header_o, ours, keys):
        left[row] = left.get(row, 0) + 1
    matched, first = 0, ""
    for row in project(header_r, ref, keys):
        if left.get(row, 0) > 0:
            left[row] -= 1
            matched += 1
        elif not first:
            first = "reference row %s not in ours" % (dict(zip(keys, row)),)
    if not first and len(ours) != len(ref):
        first = "rows %d vs reference %d" % (len(ours), len(ref))
    return matched, first


def compare_sheet(sheet, ours_path, ref_path, rank, rel, critical_path_rank=0):
    """(verdict, rows matched, reference rows, detail)."""
    ref = read_rows(ref_path)
    header_r, ref_rows = (ref[0], ref[1:]) if ref else ([], [])
    if rank is not None and sheet.startswith("critical_path_"):
        if rank != critical_path_rank:
            return "SKIP", 0, len(ref_rows), "HTA's critical path is rank %d's" % critical_path_rank
    elif rank is not None and "rank" not in header_r:
        return "SKIP", 0, len(ref_rows), "no rank column: HTA's over every rank"
    ref_rows = rows_of_rank(header_r, ref_rows, rank)
    if not os.path.exists(ours_path):
        return "MISSING", 0, len(ref_rows), "no %s.csv" % sheet
    ours = read_rows(ours_path)
    header_o, our_rows = (ours[0], ours[1:]) if ours else ([], [])
    if sheet == "critical_path_breakdown":
        matched, first = compare_as_multiset(header_o, our_rows, header_r, ref_rows, CRITICAL_PATH_KEYS)
    elif not ref_rows and not our_rows and header_o[len(header_o) - len(header_r):] == header_r:
        matched, first = 0, ""  # pandas leaves an empty group-by's index columns out
    elif header_o != header_r:
        return "DIFF", 0, len(ref_rows), "headers differ: %s vs %s" % (header_o, header_r)
    else:
        matched, first = compare_in_order(header_r, our_rows, ref_rows, rel)
    return ("OK" if not first else "DIFF"), matched, len(ref_rows), first


def failures(ours_dir, ref_dir):
    path = os.path.join(ref_dir, "failures.txt")
    lines = open(path, encoding="utf-8").read().splitlines() if os.path.exists(path) else []
    out = []
    for line in lines:
        analysis = line.split(":", 1)[0].strip()
        if not analysis:
            continue
        ours = os.path.join(ours_dir, analysis + ".csv")
        rows = len(read_rows(ours)) - 1 if os.path.exists(ours) else -1
        out.append((analysis, line, rows))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ours")
    ap.add_argument("ref")
    ap.add_argument("--rank", type=int)
    ap.add_argument("--critical-path-rank", type=int, default=0,
                    help="with --rank: the rank whose critical path the reference holds")
    ap.add_argument("--rel", type=float, default=1e-6)
    ap.add_argument("--sheets")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    sheets = reference_sheets(args.ref)
    if args.sheets:
        sheets = {s: sheets[s] for s in args.sheets.split(",") if s in sheets}
    good = compared = 0
    for sheet, ref_path in sheets.items():
        verdict, matched, total, detail = compare_sheet(
            sheet, os.path.join(args.ours, sheet + ".csv"), ref_path, args.rank, args.rel,
            args.critical_path_rank)
        if verdict != "SKIP":
            compared += 1
            good += verdict == "OK"
        if not args.quiet or verdict not in ("OK", "SKIP"):
            print("%-32s %-7s %6d/%-6d %s" % (sheet, verdict, matched, total, detail))
    all_failures_answered = True
    for analysis, line, rows in failures(args.ours, args.ref):
        answered = rows > 0
        all_failures_answered &= answered
        print("HTA failed: %-40s sollens: %s" % (line[:60], "%d rows" % rows if rows >= 0 else "no sheet"))
    print("sheets matching: %d/%d" % (good, compared))
    return 0 if good == compared and all_failures_answered else 1


if __name__ == "__main__":
    sys.exit(main())
