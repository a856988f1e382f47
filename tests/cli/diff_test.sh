#!/usr/bin/env bash
# sollens diff end to end: a stored report as baseline, a regression planted in a copy of
# a real trace (one GEMM kernel's durations doubled), the gate's exit codes, Markdown and
# JUnit outputs.
#   diff_test.sh SOLLENS_BINARY FIXTURES_DIR
set -u
sollens=$1
fixtures=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

expect() {
  local name=$1 code=$2 regex=$3
  shift 4
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [[ $rc == "$code" ]] && grep -qE -- "$regex" <<<"$out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    printf 'FAILED: %s (exit %s, wanted %s; output must match /%s/)\n%s\n' "$name" "$rc" "$code" "$regex" "$out"
  fi
}
check() {  # NAME COMMAND...: the command must succeed
  local name=$1
  shift
  if "$@" >/dev/null 2>&1; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $name"; fi
}

bert=$fixtures/traces/tracelens-h100-bert-small/gaunernst_bert-small-uncased__1016001.json.gz
gemm='void cutlass::Kernel2<cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8>(cutlass_80_wmma_tensorop_bf16_s161616gemm_bf16_32x32_128x2_tn_align8::Params)'

# The planted regression: every event of that GEMM kernel takes twice as long, so its
# kernel_summary sum changes by exactly +100 %.
python3 - "$bert" "$tmp/slow.json" "$gemm" <<'PY'
import gzip, json, sys
trace = json.load(gzip.open(sys.argv[1]))
for e in trace["traceEvents"]:
    if e.get("cat") == "kernel" and e.get("name") == sys.argv[3]:
        e["dur"] = e["dur"] * 2
json.dump(trace, open(sys.argv[2], "w"))
PY

expect "report as baseline" 0 "wrote .*report.json" -- "$sollens" report "$bert" --out "$tmp/base" --no-xlsx
expect "same run: within thresholds" 0 "ok +total time > \+0%" -- \
  "$sollens" diff "$tmp/base" "$bert" --out "$tmp/same" --fail-if 'total time > +0%'
# Compared with itself every ops_summary time diff is 0.
check "same run: ops_summary diffs are 0" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(float(r["total_direct_kernel_time_ms__variant_diff"]) == 0 for r in rows)' "$tmp/same/ops_summary.csv"

expect "planted regression fails the gate" 4 "FAIL +kernel .* time > \+50%" -- \
  "$sollens" diff "$tmp/base/report.json" "$tmp/slow.json" --names main,pr --out "$tmp/d" \
  --fail-if "kernel \"$gemm\" time > +50%" --fail-if 'total time > +50%' \
  --markdown "$tmp/summary.md" --junit "$tmp/junit.xml"
check "markdown says regression" grep -q "❌ regression" "$tmp/summary.md"
check "markdown lists the gate" grep -q "| \`total time > +50%\` |" "$tmp/summary.md"
check "markdown has the headline by the runs' names" grep -Eq "^pr is ([0-9.]+ % (faster|slower) than|as fast as) main: .*But its GPU work is [0-9.]+ % slower" "$tmp/summary.md"
check "junit: 2 tests, 1 failure" grep -q 'tests="2" failures="1" errors="0"' "$tmp/junit.xml"
check "junit is XML" python3 -c 'import sys, xml.dom.minidom as m; m.parse(sys.argv[1])' "$tmp/junit.xml"
check "diff.json is JSON with the tags" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["metadata"]["names"] == ["main", "pr"] and "ops_summary" in d["sheets"]' "$tmp/d/diff.json"
expect "exactly +100%: a +150% threshold holds" 0 "change \+100%" -- \
  "$sollens" diff "$bert" "$tmp/slow.json" --out "$tmp/e" --fail-if "kernel \"$gemm\" time > +150%"
expect "two traces: op-tree and cycle diffs" 0 "sheets in" -- "$sollens" diff "$bert" "$tmp/slow.json" --out "$tmp/f"
check "op_tree_diff written" test -s "$tmp/f/op_tree_diff.csv"

# A run 10 % slower everywhere: the control trace of hta-trace-diff-pair with every
# timestamp (from the first event) and duration stretched by 1.1, so each step's and
# layer's wall-clock latency grows by exactly 10 %.
control=$fixtures/traces/hta-trace-diff-pair/control.json.gz
python3 - "$control" "$tmp/stretched.json" <<'PY'
import gzip, json, sys
trace = json.load(gzip.open(sys.argv[1]))
t0 = min(e["ts"] for e in trace["traceEvents"] if "ts" in e)
for e in trace["traceEvents"]:
    if "ts" in e:
        e["ts"] = t0 + (e["ts"] - t0) * 1.1
    if "dur" in e:
        e["dur"] = e["dur"] * 1.1
json.dump(trace, open(sys.argv[2], "w"))
PY
expect "stretched run: step latency +10% fails +5%" 4 "FAIL +step latency > \+5%  .*change \+10%" -- \
  "$sollens" diff "$control" "$tmp/stretched.json" --out "$tmp/c" --fail-if 'step latency > +5%' --fail-if 'step latency > +15%'
check "stretched run: every cycle latency +10%" python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
# timestamps near 1.7e15 µs are doubles exact to 0.25 µs only: each latency may be off
# by 0.5 µs (both ends rounded), i.e. by 0.5 / latency · 100 % of its change
assert rows and all(abs(float(r["latency_us__variant_pct"]) - 10) <= 50 / float(r["baseline::latency_us"])
                    for r in rows)' "$tmp/c/cycle_diff.csv"

expect "parse error" 2 "no comparison in" -- "$sollens" diff "$bert" "$bert" --fail-if 'total time >5%'
expect "unknown figure" 2 "unknown figure 'walltime'" -- "$sollens" diff "$bert" "$bert" --fail-if 'walltime > 5%'
expect "one input" 2 "error: diff needs two inputs.*\[missing_input\]$" -- "$sollens" diff "$bert"
expect "bad --names" 2 "error: --names takes two.*\[bad_run_names\]$" -- "$sollens" diff "$bert" "$bert" --names a
expect "missing baseline" 1 "error: cannot open .*\[file_unreadable\]$" -- "$sollens" diff "$tmp/nope.json" "$bert"
expect "folder without report" 1 "without report.json .*\[file_unreadable\]$" -- "$sollens" diff "$tmp" "$bert"
expect "figure in neither run" 1 "ERROR op aten::nothing" -- \
  "$sollens" diff "$bert" "$bert" --out "$tmp/g" --fail-if 'op aten::nothing time > +1%'
expect "stored baseline: no step latency" 1 "ERROR step latency" -- \
  "$sollens" diff "$tmp/base" "$bert" --out "$tmp/h" --fail-if 'step latency > +3%'

echo "diff_test: $passed passed, $failed failed"
[[ $failed == 0 ]]
