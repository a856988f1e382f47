#!/bin/bash
# The sweep must fail on a sanitizer report, a signal and a timeout, and pass an
# ordinary error exit: stand-in sollens binaries, one behaviour each, over one
# small fixture folder.
set -u
here=$(cd "$(dirname "$0")" && pwd)
fixtures=${1:-$here/../fixtures}/traces/hta-mi250-minitoy
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

stand_in() {  # NAME BODY
  printf '#!/bin/bash\n%s\n' "$2" > "$tmp/$1"
  chmod +x "$tmp/$1"
}
stand_in asan 'echo "==1==ERROR: AddressSanitizer: heap-buffer-overflow" >&2; exit 1'
stand_in ubsan 'echo "x.cpp:1:2: runtime error: signed integer overflow" >&2; exit 1'
stand_in segv 'kill -SEGV $$'
stand_in hang 'sleep 30'
stand_in user_error 'echo "sollens: cannot read the trace" >&2; exit 1'

expect() {  # WANT_RC NAME [OPTIONS]
  local want=$1 name=$2; shift 2
  python3 "$here/all_traces.py" "$tmp/$name" "$fixtures" --work "$tmp/work-$name" "$@" > "$tmp/$name.log" 2>&1
  local rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL: stand-in '$name' gave exit $rc, expected $want"; tail -20 "$tmp/$name.log"
    failures=$((failures + 1))
  else
    echo "ok: stand-in '$name' -> exit $rc ($(grep -c FAIL "$tmp/$name.log") FAIL lines)"
  fi
}
expect 1 asan
expect 1 ubsan
expect 1 segv
expect 1 hang --timeout 1
expect 0 user_error
exit $((failures > 0))
