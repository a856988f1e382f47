#!/usr/bin/env bash
# The bounded fuzz run of `bash .ci/dev.sh test`: replays tests/fuzz/regressions/<target>/*,
# then fuzzes each target for its bounded_seconds (targets.txt), two at a time (about
# 2 minutes on 2 cores), from the committed corpus. Fails on any crash, leak, timeout
# (> 10 s for one input) or out-of-memory (> 2048 MB); the input that did it is kept
# under $FUZZ_WORK/artifacts/ (default build/fuzz-run/).
#   bash tests/fuzz/run_bounded.sh [BUILD_DIR]     (default build/fuzz)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
BUILD=${1:-build/fuzz}
WORK=${FUZZ_WORK:-build/fuzz-run}
FUZZ=tests/fuzz
LANES=${FUZZ_LANES:-2}
common=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1)

rm -rf "$WORK"
mkdir -p "$WORK/artifacts" "$WORK/logs"
failed=()

replay() {
  local target=$1 inputs=("$FUZZ/regressions/$1"/*)
  [[ -e ${inputs[0]} ]] || return 0
  "$BUILD/$target" "${common[@]}" "${inputs[@]}" >"$WORK/logs/$target.replay.log" 2>&1
}

fuzz() {
  local target=$1 max_len=$2 dict=$3 seconds=$4
  mkdir -p "$WORK/corpus/$target"
  "$BUILD/$target" "${common[@]}" -max_len="$max_len" -dict="$FUZZ/$dict" \
    -max_total_time="$seconds" -artifact_prefix="$WORK/artifacts/$target-" \
    "$WORK/corpus/$target" "$FUZZ/corpus/$target" >"$WORK/logs/$target.log" 2>&1
  echo $? >"$WORK/logs/$target.rc"
}

start=$SECONDS
targets=()
while read -r target max_len dict _ seconds; do
  [[ -z $target || $target == \#* ]] && continue
  [[ -x $BUILD/$target ]] || { echo "run_bounded: $BUILD/$target not built" >&2; exit 1; }
  if ! replay "$target"; then
    failed+=("$target (a regression input)")
    tail -n 40 "$WORK/logs/$target.replay.log" >&2
    continue
  fi
  while (($(jobs -rp | wc -l) >= LANES)); do wait -n || true; done
  fuzz "$target" "$max_len" "$dict" "$seconds" &
  targets+=("$target")
done <"$FUZZ/targets.txt"
wait

for target in "${targets[@]}"; do
  if [[ $(cat "$WORK/logs/$target.rc") == 0 ]]; then
    echo "run_bounded: $target: $(grep -E '^Done [0-9]+ runs|stat::number_of_executed_units' "$WORK/logs/$target.log" | tail -n 1)"
  else
    failed+=("$target")
    tail -n 60 "$WORK/logs/$target.log" >&2
  fi
done
if ((${#failed[@]})); then
  echo "run_bounded: FAILED: ${failed[*]}; inputs in $WORK/artifacts/" >&2
  exit 1
fi
echo "run_bounded: no crash, leak, timeout or OOM in $((SECONDS - start)) s"
