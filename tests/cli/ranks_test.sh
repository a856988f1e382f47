#!/usr/bin/env bash
# sollens report with several traces: a folder, a glob and a list of files give each
# rank's report in OUT/rank<k>/ and the cross-rank sheets in OUT/; one file still
# writes its report straight into OUT/.
# usage: ranks_test.sh SOLLENS FIXTURES_DIR
set -u
sollens=$1
fixtures=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
fail() { echo "FAILED: $*"; failed=1; }

dlrm=$fixtures/traces/param-dlrm-v100-8rank
cross="nccl_summary_implicit_sync nccl_summary_long nccl_long nccl_implicit_sync straggler_summary gpu_timeline_ranks comm_comp_overlap idle_time_breakdown rank_clocks"

check_ranks_dir() {  # DIR: the eight rank folders and the cross-rank sheets
  for k in 0 1 2 3 4 5 6 7; do
    [ -f "$1/rank$k/gpu_timeline.csv" ] || fail "$1/rank$k/gpu_timeline.csv missing"
  done
  for sheet in $cross; do [ -f "$1/$sheet.csv" ] || fail "$1/$sheet.csv missing"; done
  ls -a "$1" | grep -q '^\.file' && fail "temporary folders left in $1"
  # The straggler (least total wait) is rank 7 with 1534 µs (counted in
  # tests/analyses/ranks/multi_rank_fixtures_test.cpp).
  [ "$(sed -n 2p "$1/straggler_summary.csv" | cut -d, -f1,2)" = "7,1534.0" ] ||
    fail "straggler row: $(sed -n 2p "$1/straggler_summary.csv")"
  # 8 ranks × 8 NCCL kernels, each named from its nccl: annotation.
  [ "$(tail -n +2 "$1/nccl_long.csv" | grep -c ',nccl annotation$')" = 64 ] || fail "nccl_long rows not all named"
}

out=$("$sollens" report "$dlrm" --out "$tmp/dir" --no-xlsx 2>&1) || fail "folder: exited $?: $out"
grep -q "8 ranks" <<<"$out" || fail "no '8 ranks' line: $out"
grep -q "straggler (least total wait): rank 7" <<<"$out" || fail "no straggler line: $out"
check_ranks_dir "$tmp/dir"

out=$("$sollens" report "$dlrm/worker*.json.gz" --out "$tmp/glob" --no-xlsx --no-json 2>&1) || fail "glob: exited $?: $out"
check_ranks_dir "$tmp/glob"

out=$("$sollens" report "$dlrm"/worker*.json.gz --out "$tmp/list" --no-xlsx --no-json 2>&1) || fail "list: exited $?: $out"
check_ranks_dir "$tmp/list"
cmp -s "$tmp/glob/straggler_summary.csv" "$tmp/list/straggler_summary.csv" || fail "glob and list differ"

# One trace: today's single report, no rank folders.
out=$("$sollens" report "$dlrm/worker3_step_12.1694128201557.pt.trace.json.gz" --out "$tmp/one" --no-xlsx 2>&1) ||
  fail "one trace: exited $?: $out"
[ -f "$tmp/one/gpu_timeline.csv" ] || fail "single report missing"
[ -e "$tmp/one/rank3" ] && fail "single report wrote rank folders"

# --max-memory: a budget below one rank's estimated peak reads one rank at a time, with
# the same sheets.
out=$("$sollens" report "$dlrm" --out "$tmp/budget" --no-xlsx --no-json --max-memory 0.001 2>&1) ||
  fail "--max-memory: exited $?: $out"
grep -q "8 ranks (1 at a time)" <<<"$out" || fail "--max-memory did not read one rank at a time: $out"
cmp -s "$tmp/glob/straggler_summary.csv" "$tmp/budget/straggler_summary.csv" || fail "--max-memory changed the sheets"
"$sollens" report "$dlrm" --out "$tmp/budget2" --max-memory lots >/dev/null 2>&1
[ $? = 2 ] || fail "--max-memory lots is not a usage error"

# --rank-summary: one rank's collective kernels as nccl_long rows (the fleet recipe's
# per-rank file); rank 3 from distributedInfo, its 8 NCCL kernels.
out=$("$sollens" report "$dlrm/worker3_step_12.1694128201557.pt.trace.json.gz" --out "$tmp/r3" --no-xlsx \
  --rank-summary "$tmp/r3.csv" 2>&1) || fail "--rank-summary: exited $?: $out"
[ "$(head -n 1 "$tmp/r3.csv" | cut -d, -f1-3)" = "collective_id,index_in_group,rank" ] || fail "rank summary header"
[ "$(tail -n +2 "$tmp/r3.csv" | cut -d, -f3 | sort -u)" = 3 ] || fail "rank summary rows not all rank 3"
[ "$(tail -n +2 "$tmp/r3.csv" | wc -l)" = 8 ] || fail "rank summary: not 8 kernels"
"$sollens" report "$dlrm" --out "$tmp/r-many" --rank-summary "$tmp/many.csv" >/dev/null 2>&1
[ $? = 2 ] || fail "--rank-summary with many traces is not a usage error"

out=$("$sollens" report "$tmp/nothing-here*.json" --out "$tmp/none" 2>&1) && fail "empty glob accepted"
grep -q "no trace in" <<<"$out" || fail "empty glob message: $out"

exit $failed
