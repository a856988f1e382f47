#!/usr/bin/env bash
# The sollens command end to end: outputs, exit codes and messages for what users get wrong.
#   cli_test.sh SOLLENS_BINARY FIXTURES_DIR
set -u
sollens=$1
fixtures=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0

# expect NAME EXIT_CODE REGEX -- COMMAND...: exit code and combined output must match.
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

bert=$fixtures/traces/tracelens-h100-bert-small/gaunernst_bert-small-uncased__1016001.json.gz
ref=$fixtures/traces/tracelens-h100-bert-small/tracelens-report/gpu_timeline.csv

expect "help" 0 "usage:" -- "$sollens" --help
expect "no arguments" 2 "usage:" -- "$sollens"
expect "help lists the commands" 0 "^  sollens solar ET \[options\]" -- "$sollens" --help
expect "help points to each command's own" 0 "sollens COMMAND --help" -- "$sollens" --help
# Each command's own --help: its usage and every one of its options, exit 0 (also with
# other words around it).
help_names() {
  local command=$1; shift
  expect "$command --help: usage" 0 "^usage: sollens $command " -- "$sollens" "$command" --help
  for flag in "$@"; do
    expect "$command --help names $flag" 0 "^  $flag( |\$)" -- "$sollens" "$command" some.json --help
  done
}
help_names report --out --no-json --no-xlsx --device --no-roofline --no-sol --efficiency --capture --corrected \
  --include-unlinked --include-python --link --detect-recompute --first-occurrence-time --micro-idle-thresh-us \
  --group-by-num-kernels --short-kernel-threshold-us --short-kernel-histogram-bins --topk-short-kernels \
  --strip-sglang-suffixes --rank-summary --max-memory --no-hta --hta-kernel-gap-us --hta-kernel-share \
  --hta-top-kernels --hta-runtime-cutoff-us --hta-launch-delay-cutoff-us --hta-max-queue-length --hta-time-series \
  --hta-kernels-with-annotations --hta-sequences --hta-sequence-min-length --hta-sequence-top-k --critical-path --counters-trace \
  --critical-path-trace
help_names info --device --link
help_names cycles --mode --order --out
help_names sol --device --efficiency --capture --out
help_names solar --kineto --device --out
help_names diff --names --out --fail-if --markdown --junit
expect "help COMMAND is the command's --help" 0 "^  --kineto TRACE" -- "$sollens" help solar
expect "cycles --help is not the overview" 0 "^  --order stream\|device\|file" -- "$sollens" cycles -h
out=$("$sollens" cycles --help)
[[ $out != *"--max-memory"* ]] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAILED: cycles --help lists report's options"; }
# Only diff has thresholds: the other commands' exit codes say nothing of them.
[[ $out != *"threshold"* ]] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAILED: cycles --help lists diff's exit codes"; }
expect "diff --help: exit code 4" 0 "4 \(diff\) a threshold was crossed" -- "$sollens" diff --help
for command in "" report info cycles sol solar diff; do
  wide=$("$sollens" $command --help | awk 'length($0) > 80')
  [[ -z $wide ]] && passed=$((passed + 1)) || { failed=$((failed + 1)); printf 'FAILED: sollens %s --help wider than 80 columns:\n%s\n' "$command" "$wide"; }
done
expect "unknown command" 2 "^sollens: error: unknown command 'frobnicate' .*\[unknown_command\]$" -- "$sollens" frobnicate
expect "unknown option" 2 "^sollens: error: unknown option '--bogus' for report .*\[unknown_option\]$" -- "$sollens" report "$bert" --bogus
expect "--out without value" 2 "error: --out needs a directory \[bad_option_value\]$" -- "$sollens" report "$bert" --out
expect "report without trace" 2 "error: report needs a trace file .*\[missing_input\]$" -- "$sollens" report
expect "missing file" 1 "^sollens: error: cannot open .*nope.json: .* \[file_unreadable\]$" -- "$sollens" report "$tmp/nope.json"
expect "directory" 1 "is a directory, not a trace file \[file_unreadable\]$" -- "$sollens" info "$tmp"
: >"$tmp/empty.json"
expect "empty file" 1 "error: .*the file is empty.*\[file_empty\]$" -- "$sollens" report "$tmp/empty.json" --out "$tmp/o"
printf 'PK\003\004zip' >"$tmp/zip.json"
expect "zip archive" 1 "not JSON: this is a zip archive; expected a Kineto trace.*\[not_json\]$" -- "$sollens" report "$tmp/zip.json"
printf '{"foo": 1}' >"$tmp/other.json"
expect "no traceEvents" 1 'no "traceEvents" array.*\[not_a_trace\]$' -- "$sollens" info "$tmp/other.json"
printf 'garbage' | gzip >"$tmp/garbage.json.gz"
expect "gzip of garbage" 1 "not JSON" -- "$sollens" info "$tmp/garbage.json.gz"
head -c 300000 <(gzip -dc "$bert") >"$tmp/truncated.json"
expect "truncated trace" 0 "^sollens: warning: .*truncated.*\[(truncated|unclosed_array)\]$" -- "$sollens" report "$tmp/truncated.json" --out "$tmp/t"

# A report on a real trace: the CSV equals TraceLens's, the summary names the file.
expect "report" 0 "wrote .*gpu_timeline.csv" -- "$sollens" report "$bert" --out "$tmp/r"
if cmp -s "$tmp/r/gpu_timeline.csv" "$ref"; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAILED: gpu_timeline.csv differs from TraceLens's"; diff "$tmp/r/gpu_timeline.csv" "$ref"; fi
expect "info" 0 'device: +id 0 "NVIDIA H100 80GB HBM3"' -- "$sollens" info "$bert"
expect "info counts" 0 "events: +2551 " -- "$sollens" info "$bert"
# Files are read through a private mapping: one that ends on a page boundary has its
# padding in anonymous pages, and the reader's repair of a cut-off end (a closing
# bracket written past the data) must not reach the file.
head -c 307200 <(gzip -dc "$bert") >"$tmp/page_cut.json"  # 75 pages of 4 KiB
cp "$tmp/page_cut.json" "$tmp/page_cut.orig"
expect "truncated at a page boundary" 0 "warning: .*truncated" -- "$sollens" report "$tmp/page_cut.json" --out "$tmp/p"
if cmp -s "$tmp/page_cut.json" "$tmp/page_cut.orig"; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAILED: reading a trace changed the file"; fi
# A trace with NCCL kernels gets coll_analysis, as its last sheet.
nccl=$fixtures/traces/hta-a100-ddp-nccl/nccl_data.json.gz
expect "coll_analysis" 0 "wrote .*coll_analysis.csv" -- "$sollens" report "$nccl" --out "$tmp/c" --no-json --no-xlsx
# sollens sol: the console report, sol.json with the tracker's metric names, a CSV per table.
qwen=$fixtures/traces/tracelens-h100-qwen1.5-0.5b/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz
expect "sol" 0 "^Device: H100_SXM5_80GB \| Ops: [0-9]+$" -- "$sollens" sol "$qwen" --out "$tmp/s"
# The headline is the step's speed of light over its wall time, idle included.
expect "sol headline" 0 "^SOL efficiency per step: [0-9.]+% \(.* of wall time" -- "$sollens" sol "$qwen"
expect "sol layer types" 0 "^  Linear \(forward\) +168 ops" -- "$sollens" sol "$qwen" --out "$tmp/s"
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); m=d["metrics"]; assert d["device"]=="H100_SXM5_80GB"; assert all(k in m for k in ("sol/total_ops","sol/total_tflops","sol/estimated_time_ms","sol/measured_time_ms","sol/kernel_efficiency_pct")); assert abs(sum(r["measured_time_ms"] for r in d["by_layer_type"])-m["sol/measured_time_ms"])<1e-9' "$tmp/s/sol.json" &&
   [[ -s "$tmp/s/sol_by_layer_type.csv" && -s "$tmp/s/sol_by_step.csv" ]]; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAILED: sol.json or the sol CSVs"; fi
expect "sol efficiency" 0 "efficiency factor 0.80" -- "$sollens" sol "$qwen" --efficiency 0.8 --out "$tmp/s8"
expect "sol bad efficiency" 2 "error: --efficiency needs a factor.*\[bad_option_value\]$" -- "$sollens" sol "$qwen" --efficiency 1.5
expect "sol no device" 0 "Device: \(none\)|Device: MI" -- "$sollens" sol "$fixtures/traces/tracelens-mi210-gpu-only/$(ls "$fixtures/traces/tracelens-mi210-gpu-only" | grep -m1 json)" --out "$tmp/s0"
# A graph-replay trace with the trace of its capture: the replayed kernels count for the
# ops captured (every one of the 544 SGLang decode kernels), in sol and in the report.
sglang=$fixtures/traces/tracelens-sglang-qwen3-8b-decode
expect "sol --capture" 0 "note: 1 graph replay \(544 kernels, 9.66 ms\) mapped from the capture trace: 100.0 %" -- \
  "$sollens" sol "$sglang/sglang_Qwen3-8B_decode.json.gz" --capture "$sglang/capture_traces/bs_32_rank0.json.gz" --out "$tmp/sg"
expect "report --capture" 0 "sol: note: 1 graph replay .* mapped from the capture trace" -- "$sollens" report \
  "$sglang/sglang_Qwen3-8B_decode.json.gz" --capture "$sglang/capture_traces/bs_32_rank0.json.gz" --out "$tmp/sgr" --no-xlsx
expect "sol unmapped replay" 0 "graph replay .* stayed unmapped" -- "$sollens" sol "$sglang/sglang_Qwen3-8B_decode.json.gz" --out "$tmp/sg0"
expect "--capture without value" 2 "--capture needs the graph-capture trace" -- "$sollens" sol "$qwen" --capture
touch "$tmp/readonly" && chmod 000 "$tmp/readonly" 2>/dev/null
expect "unwritable output" 3 "error: cannot (create|write) .*\[output_unwritable\]$" -- "$sollens" report "$bert" --out "$tmp/readonly/x"

# Holistic Trace Analysis: its sheets' time in the summary; --no-hta leaves every HTA
# sheet out; malformed values are usage errors.
expect "report times the HTA sheets" 0 "timings \(ms\): .*, HTA [0-9]+\.[0-9]+ \(beside the sheets before it, waited [0-9]+\.[0-9]+\)," -- "$sollens" report "$bert" --out "$tmp/h" --no-xlsx
expect "--no-hta" 0 "wrote .*gpu_timeline.csv" -- "$sollens" report "$bert" --out "$tmp/nh" --no-xlsx --no-hta
hta_files=$(ls "$tmp/nh" | grep -E '^(temporal_breakdown|idle_time|comm_comp|gpu_kernel|gpu_user_annotation|cuda_kernel_launch|aten_op_kernels|frequent_cuda|queue_length|time_blocked|memory_bw|cupti|critical_path)')
[[ -z $hta_files ]] && passed=$((passed + 1)) || { failed=$((failed + 1)); printf 'FAILED: --no-hta wrote %s\n' "$hta_files"; }
# --counters-trace: the trace again with HTA's counter tracks (Queue Length per stream).
expect "--counters-trace" 0 "wrote $tmp/counters.json" -- "$sollens" report "$bert" --out "$tmp/ct" --no-xlsx --no-json --counters-trace "$tmp/counters.json"
if python3 -c 'import json, sys; e = json.load(open(sys.argv[1]))["traceEvents"]; c = [x for x in e if x.get("ph") == "C"]; sys.exit(not (c and all(x["name"] == "Queue Length" or "BW" in str(x["args"]) for x in c) and len(e) - len(c) == 2551))' "$tmp/counters.json"; then
  passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: the counters trace's events"; fi
expect "--counters-trace unwritable" 3 "cannot write $tmp/readonly/c.json \(--counters-trace\)" -- "$sollens" report "$bert" --out "$tmp/ct2" --no-xlsx --no-json --counters-trace "$tmp/readonly/c.json"
expect "--counters-trace with many traces" 2 "error: --counters-trace takes one trace \[too_many_inputs\]$" -- "$sollens" report "$bert" "$bert" --counters-trace "$tmp/c.json"
# --critical-path-trace: the trace again with HTA's critical path overlaid (flow arrows
# and copies of the path's events, cat critical_path).
expect "--critical-path-trace" 0 "wrote $tmp/cp.json" -- "$sollens" report "$bert" --out "$tmp/cp" --no-xlsx --no-json --critical-path-trace "$tmp/cp.json"
if python3 -c 'import json, sys; e = json.load(open(sys.argv[1]))["traceEvents"]; a = e[2551:]; s = [x for x in a if x.get("ph") == "s"]; f = [x for x in a if x.get("ph") == "f"]; sys.exit(not (s and len(s) == len(f) and all(x.get("cat") == "critical_path" for x in s + f)))' "$tmp/cp.json"; then
  passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: the critical-path trace's events"; fi
expect "--critical-path-trace with none" 2 "--critical-path-trace needs a critical path \(not --critical-path none\) \[conflicting_options\]$" -- "$sollens" report "$bert" --critical-path none --critical-path-trace "$tmp/cp2.json"
expect "--critical-path-trace unwritable" 3 "cannot write $tmp/readonly/cp.json \(--critical-path-trace\)" -- "$sollens" report "$bert" --out "$tmp/cp3" --no-xlsx --no-json --critical-path-trace "$tmp/readonly/cp.json"
expect "--critical-path-trace with many traces" 2 "--critical-path-trace takes one trace" -- "$sollens" report "$bert" "$bert" --critical-path-trace "$tmp/c.json"
expect "--hta-time-series" 0 "wrote .*queue_length_time_series.csv" -- "$sollens" report "$bert" --out "$tmp/ts" --no-xlsx --no-json --hta-time-series
expect "--hta-kernels-with-annotations" 0 "wrote .*gpu_kernels_with_user_annotations.csv" -- "$sollens" report "$bert" --out "$tmp/ka" --no-xlsx --no-json --hta-kernels-with-annotations
for sheet in queue_length_time_series memory_bw_time_series gpu_kernels_with_user_annotations frequent_cuda_kernel_sequences; do
  [[ ! -e $tmp/h/$sheet.csv ]] && passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAILED: $sheet.csv written by default"; }
done
"$sollens" report "$bert" --out "$tmp/cpn" --no-xlsx --no-json --critical-path none >/dev/null 2>&1
[[ -e $tmp/h/critical_path_summary.csv && ! -e $tmp/cpn/critical_path_summary.csv && -e $tmp/cpn/temporal_breakdown.csv ]] &&
  passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAILED: --critical-path none leaves out the critical-path sheets only"; }
# --hta-sequences OP adds frequent_cuda_kernel_sequences (none without it, above); top-k rows at most.
expect "--hta-sequences" 0 "wrote .*frequent_cuda_kernel_sequences.csv" -- "$sollens" report "$bert" --out "$tmp/fs" --no-xlsx --no-json \
  --hta-sequences aten:: --hta-sequence-min-length 1
expect "--hta-sequence-top-k" 0 "wrote .*frequent_cuda_kernel_sequences.csv" -- "$sollens" report "$bert" --out "$tmp/fs1" --no-xlsx --no-json \
  --hta-sequences aten:: --hta-sequence-min-length 1 --hta-sequence-top-k 1
[[ $(wc -l <"$tmp/fs/frequent_cuda_kernel_sequences.csv") -gt 2 && $(wc -l <"$tmp/fs1/frequent_cuda_kernel_sequences.csv") == 2 ]] &&
  passed=$((passed + 1)) || { failed=$((failed + 1)); echo "FAILED: --hta-sequence-top-k 1 keeps one of several patterns"; }
expect "--critical-path bad index" 2 "--critical-path needs ANNOTATION\[:INDEX\], INDEX a whole number >= 0 \(or all, or none\), not 'ProfilerStep:x'" -- \
  "$sollens" report "$bert" --critical-path ProfilerStep:x
expect "--critical-path without value" 2 "--critical-path needs ANNOTATION" -- "$sollens" report "$bert" --critical-path
expect "--hta-max-queue-length 0" 2 "--hta-max-queue-length needs a whole number >= 1" -- "$sollens" report "$bert" --hta-max-queue-length 0
expect "--hta-kernel-gap-us negative" 2 "--hta-kernel-gap-us needs a number of microseconds >= 0" -- "$sollens" report "$bert" --hta-kernel-gap-us -5
expect "--hta-sequences empty" 2 "--hta-sequences needs an operator name" -- "$sollens" report "$bert" --hta-sequences ""

# No flow events: GPU events linked by correlation id, with a warning; --link flows is
# TraceLens's rule (nothing linked, a timeline of zeros); a wrong value is a usage error.
flowless=$fixtures/synthetic/correlation_only_launches.json
expect "--link auto warns" 0 "note: linked 4 GPU events to their launches by correlation id: the trace has no flow events.*\[linked_by_correlation\]$" -- "$sollens" report "$flowless" --out "$tmp/la" --no-json --no-xlsx
expect "--link auto timeline" 0 "^busy_time,0.025,83.33" -- cat "$tmp/la/gpu_timeline.csv"
expect "--link flows" 0 "5 GPU events \(0 linked\)" -- "$sollens" report "$flowless" --link flows --out "$tmp/lf" --no-json --no-xlsx
expect "--link flows timeline" 0 "^busy_time,0.0,$" -- cat "$tmp/lf/gpu_timeline.csv"
expect "--link correlation" 0 "5 GPU events \(4 linked\)" -- "$sollens" report "$flowless" --link correlation --out "$tmp/lc" --no-json --no-xlsx
expect "info says the linking" 0 "linking: +by correlation id" -- "$sollens" info "$flowless"
expect "info --link flows" 0 "events: +13 \(5 GPU, 0 linked" -- "$sollens" info "$flowless" --link flows
expect "--link with a wrong value" 2 "--link is flows, correlation or auto, not 'ac2g'" -- "$sollens" info "$flowless" --link ac2g
expect "--link without a value" 2 "--link is flows, correlation or auto" -- "$sollens" report "$flowless" --link
if "$sollens" info "$bert" | grep -q "^linking:"; then
  failed=$((failed + 1)); echo "FAILED: info names the linking of a trace with flows"; else passed=$((passed + 1)); fi
# sollens solar: an Execution Trace, with and without its Kineto trace.
et=$fixtures/traces/param-et-linear/linear_et.json.gz
kineto=$fixtures/traces/param-et-linear/linear_kineto.json.gz
expect "solar without trace" 2 "needs a trace file" -- "$sollens" solar
expect "solar unknown device" 2 "error: unknown device 'NoSuchGpu' for --device .*H100_SXM5_80GB.*\[unknown_device\]$" -- "$sollens" solar "$et" --device NoSuchGpu
expect "solar given a Kineto trace" 1 "Kineto trace .*--kineto.*\[et_is_kineto\]$" -- "$sollens" solar "$bert"
expect "solar of garbage" 1 "not JSON" -- "$sollens" solar "$tmp/garbage.json.gz"
expect "solar without device" 0 "no SOL times: no device" -- "$sollens" solar "$et" --out "$tmp/s0"
expect "solar" 0 "measured \(thread_alignment\): 217/217" -- \
  "$sollens" solar "$et" --kineto "$kineto" --device A100_SXM4_80GB --out "$tmp/s"
if python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (d["perf"]["fused"]["runtime_ms"] > 0 and d["link"]["linked_fraction"] >= 0.95))' "$tmp/s/solar.json" &&
   [[ $(wc -l <"$tmp/s/solar_nodes.csv") == 218 ]] && [[ -s $tmp/s/solar.yaml ]]; then
  passed=$((passed + 1))
else
  failed=$((failed + 1)); echo "FAILED: solar outputs in $tmp/s"
fi
expect "report of an Execution Trace" 0 "sollens solar" -- "$sollens" info "$et"

echo "cli: $passed passed, $failed failed"
[[ $failed == 0 ]]
