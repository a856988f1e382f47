#!/usr/bin/env bash
# The long fuzz run of fuzzbundle/ (make_device_bundle.sh): every target at once for
# SECONDS, each with device_workers processes (targets.txt; 14 in all, sized so the
# slower targets get more), through libFuzzer's -fork mode, which keeps going after a
# crash and shares one corpus per target. Writes each target's last stats to
# $OUT/fuzz_summary.txt and copies up to 6 crash-/leak-/timeout-/oom- inputs to
# $OUT/fuzz_findings/. The binaries are unpacked, and logs and the grown corpora kept,
# in $OUT/fuzz_work/.
#   OUT=/some/dir ./run.sh SECONDS
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SECONDS_TOTAL=${1:?usage: OUT=dir run.sh SECONDS}
OUT=${OUT:?set OUT to the folder for the summary and findings}
WORK=$OUT/fuzz_work
mkdir -p "$WORK/bin" "$OUT/fuzz_findings"
for packed in "$HERE"/bin/*.xz; do
  # xz, or Python's lzma where the machine has no xz
  xz -dc "$packed" >"$WORK/bin/$(basename "$packed" .xz)" 2>/dev/null ||
    python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$packed" >"$WORK/bin/$(basename "$packed" .xz)"
  chmod +x "$WORK/bin/$(basename "$packed" .xz)"
done

targets=()
while read -r target max_len dict workers _; do
  [[ -z $target || $target == \#* ]] && continue
  targets+=("$target")
  mkdir -p "$WORK/$target/corpus" "$WORK/$target/artifacts"
  "$WORK/bin/$target" -fork="$workers" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -max_total_time="$SECONDS_TOTAL" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
    -dict="$HERE/$dict" -artifact_prefix="$WORK/$target/artifacts/" -print_final_stats=1 \
    "$WORK/$target/corpus" "$HERE/corpus/$target" >"$WORK/$target/log.txt" 2>&1 &
done <"$HERE/targets.txt"
wait

{
  printf '%-22s %12s %8s %7s %7s %7s %s\n' target execs exec/s cov ft corpus crash/timeout/oom/leak
  for target in "${targets[@]}"; do
    # Fork mode's progress lines: "#N: cov: C ft: F corp: K exec/s E oom/timeout/crash: a/b/c ..."
    line=$(grep -E '^#[0-9]+: cov:' "$WORK/$target/log.txt" | tail -n 1)
    execs=$(sed -E 's/^#([0-9]+):.*/\1/' <<<"$line")
    field() { sed -nE "s|.* $1:? ([^ ]+).*|\1|p" <<<"$line"; }
    artifacts=$WORK/$target/artifacts
    counts=$(for kind in crash timeout oom leak; do ls "$artifacts" | grep -c "^$kind-"; done | paste -sd/)
    printf '%-22s %12s %8s %7s %7s %7s %s\n' "$target" "${execs:-?}" "$(field exec/s)" "$(field cov)" \
      "$(field ft)" "$(field corp | cut -d/ -f1)" "$counts"
  done
} >"$OUT/fuzz_summary.txt"
find "$WORK" -path '*/artifacts/*' -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) |
  head -n 6 | while read -r file; do
    cp "$file" "$OUT/fuzz_findings/$(basename "$(dirname "$(dirname "$file")")")-$(basename "$file")"
  done
cat "$OUT/fuzz_summary.txt"
