#!/usr/bin/env bash
# Developer/CI entry point for sollens.
#   bash .ci/dev.sh setup          install system packages (apt) and npm deps
#   bash .ci/dev.sh main           build native + wasm, write a report for samples/*.json.gz,
#                                  then serve the page on 127.0.0.1:$PORT (default 8080)
#   bash .ci/dev.sh test           build + ctest the native, native-asan and wasm presets, then
#                                  build the fuzz preset and run tests/fuzz/run_bounded.sh (~2 min)
#   bash .ci/dev.sh bench [args]   build native + wasm, run build/native/sollens_bench [args]
#                                  (ingest, then --report: the whole report), `sollens report`
#                                  end to end with its stage breakdown, the wasm bench, then
#                                  the page bench (tests/web/bench_page.mjs); --big[=MB,...]
#                                  adds synthetic traces of 1, 2, 4, 8 GB natively and of
#                                  4 GB (.json and .json.gz) in the page (minutes, disk)
#   bash .ci/dev.sh bench-ranks [args]  build native, then `sollens report DIR` on 8 synthetic
#                                  ranks x 1 GB (tests/bench/ranks_bench.py [args]: written
#                                  once into build/bench/ranks-8x1gb, ~8 GB of disk): time,
#                                  peak resident memory, planted straggler. Not part of bench.
# JOBS (default 2) sets the build parallelism.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
JOBS=${JOBS:-2}
PORT=${PORT:-8080}
# emcc runs `python3` from PATH; pin Debian's (the wasm preset sets it as well).
export EMSDK_PYTHON=/usr/bin/python3

# slurm-wlm and munge: the fleet recipe's test runs a one-node Slurm cluster.
# clang and libclang-rt-14-dev: the fuzz preset (libFuzzer).
APT_PACKAGES=(emscripten catch2 zlib1g-dev cmake ninja-build g++ chromium
              libminizip-dev libisal-dev nodejs npm python3 slurm-wlm munge
              clang libclang-rt-14-dev)

log() { printf '\n==> %s\n' "$*" >&2; }
die() { printf 'dev.sh: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

apt_installed() {
  [[ $(dpkg-query -W -f='${Status}' "$1" 2>/dev/null) == "install ok installed" ]]
}

setup() {
  local missing=() pkg
  for pkg in "${APT_PACKAGES[@]}"; do
    # A NodeSource `nodejs` already ships npm and conflicts with Debian's npm
    # package, so working node/npm commands count as installed.
    case $pkg in
      nodejs) command -v node >/dev/null && continue ;;
      npm) command -v npm >/dev/null && continue ;;
    esac
    apt_installed "$pkg" || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    log "apt-get install ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
  else
    log "system packages already installed"
  fi
  # npm ci wipes node_modules and re-stamps every file's mtime, which would rebuild
  # simdjson in all three presets; skip it while package-lock.json is unchanged.
  local stamp=node_modules/.sollens-npm-ci.sha256
  if [[ ${FORCE_NPM_CI:-0} != 1 && -f $stamp ]] && sha256sum --status -c "$stamp" 2>/dev/null; then
    log "npm deps up to date with package-lock.json (FORCE_NPM_CI=1 to reinstall)"
  else
    log "npm ci"
    npm ci --no-audit --no-fund
    sha256sum package-lock.json >"$stamp"
  fi
}

# configure + build one preset
build() {
  log "configure + build: $1"
  cmake --preset "$1"
  cmake --build --preset "$1" -j "$JOBS"
}

cmd_main() {
  setup
  build native
  local samples=(samples/*.json.gz)
  [[ -e ${samples[0]} ]] || die "no samples/*.json.gz to report on"
  ((${#samples[@]} == 1)) || log "several samples; using ${samples[0]}"
  [[ -x build/native/sollens ]] || die "build/native/sollens was not built (no core/cli sources?)"
  log "sollens report ${samples[0]}"
  build/native/sollens report "${samples[0]}" --out build/report
  log "CSV files are in $PWD/build/report:"
  find build/report -name '*.csv' -print | sort
  # The page: the wasm preset stages the module, web/ and the sample in build/wasm/web/.
  build wasm
  [[ -f build/wasm/web/sollens.wasm ]] || die "build/wasm/web/sollens.wasm was not built"
  log "serving the page on port $PORT (Ctrl-C stops it; set PORT to change it)"
  exec node web/serve.mjs --port "$PORT"
}

cmd_test() {
  setup
  local start=$SECONDS preset
  for preset in native native-asan wasm; do
    build "$preset"
    log "ctest: $preset"
    ctest --preset "$preset"
  done
  # The fuzz preset builds the fuzz targets alone (no test suites).
  build fuzz
  log "bounded fuzz run: tests/fuzz/run_bounded.sh"
  bash tests/fuzz/run_bounded.sh build/fuzz
  echo "dev.sh test: PASSED native, native-asan, wasm, fuzz in $((SECONDS - start)) s"
}

# The path of a trace's plain JSON: a .gz is decompressed once into build/bench/
# (the whole-report bench and the wasm build, which has no zlib, read plain JSON).
plain_json() {
  local trace=$1 json=$1
  if [[ $trace == *.gz ]]; then
    json=build/bench/$(basename "${trace%.gz}")
    [[ -f $json ]] || gzip -dc "$trace" >"$json" || return  # $(…) does not inherit set -e
  fi
  printf '%s\n' "$json"
}

cmd_bench() {
  setup
  build native
  build wasm
  local bench=build/native/sollens_bench wasm_bench=build/wasm/sollens_bench.js trace
  [[ -x $bench ]] || die "$bench was not built (no tests/bench sources?)"
  local traces=() options=() arg big=""
  for arg in "$@"; do
    case $arg in
      --big) big=1000,2000,4000,8000 ;;
      --big=*) big=${arg#--big=} ;;
      *.json | *.json.gz) traces+=("$arg") ;;
      *) options+=("$arg") ;;
    esac
  done
  if ((${#traces[@]} == 0)); then
    # The three largest bundled traces.
    mapfile -t traces < <(find tests/fixtures/traces samples -name '*.json.gz' -printf '%s %p\n' |
      sort -rn | head -n 3 | cut -d' ' -f2-)
  fi
  # One process per trace, so that each peak-memory figure is the trace's own.
  log "native: $bench ${options[*]}"
  for trace in "${traces[@]}"; do "$bench" "${options[@]}" "$trace" </dev/null; done
  # The whole report (read, parse, tree, every sheet) on the decompressed JSON, with the
  # CLI's two parse threads: the figure the < 100 ms owlv2 target is about.
  mkdir -p build/bench
  log "native whole report: $bench --report --threads 2 ${options[*]}"
  for trace in "${traces[@]}"; do
    local report_json
    report_json=$(plain_json "$trace")
    "$bench" --report --threads 2 "${options[@]}" "$report_json" </dev/null
  done
  # `sollens report` as users run it (gzip in, every default output), with the stage
  # breakdown of the whole process.
  log "native CLI end to end: tests/bench/cli_bench.py"
  python3 tests/bench/cli_bench.py --sollens build/native/sollens "${traces[@]}" </dev/null
  # Synthetic traces of several GB: MB/s and peak anonymous memory per size.
  if [[ -n $big ]]; then
    log "native big traces: tests/bench/big_trace_bench.py --sizes-mb $big"
    python3 tests/bench/big_trace_bench.py --sollens build/native/sollens --sizes-mb "$big" </dev/null
  fi
  # The wasm build has no zlib: give it the decompressed JSON.
  [[ -f $wasm_bench ]] || { log "no $wasm_bench: skipping wasm"; return; }
  mkdir -p build/bench
  log "wasm (node): $wasm_bench ${options[*]}"
  for trace in "${traces[@]}"; do
    local json
    json=$(plain_json "$trace")
    node --no-experimental-fetch "$wasm_bench" "${options[@]}" "$json" </dev/null
  done
  # --- the page in headless Chromium: owlv2 ready time, a 1 GB synthetic trace (time,
  # peak memory per GB), payload size; --big adds 4 GB, as .json and .json.gz.
  # PAGE_BENCH_MB (MB,...) sets the sizes; 0 skips the synthetic traces.
  local page_sizes=${PAGE_BENCH_MB:-1024} page_gz=()
  if [[ -n $big && -z ${PAGE_BENCH_MB:-} ]]; then page_sizes=1024,4096; page_gz=(--gz); fi
  log "page: node tests/web/bench_page.mjs --synthetic-mb $page_sizes ${page_gz[*]}"
  node tests/web/bench_page.mjs --site build/wasm/web --synthetic-mb "$page_sizes" "${page_gz[@]}" </dev/null
  # --- end page bench
}

cmd_bench_ranks() {
  setup
  build native
  mkdir -p build/bench
  log "many ranks: python3 tests/bench/ranks_bench.py build/native/sollens $*"
  python3 tests/bench/ranks_bench.py build/native/sollens "$@" </dev/null
}

case ${1:-} in
  setup) setup ;;
  main) cmd_main ;;
  test) cmd_test ;;
  bench) shift; cmd_bench "$@" ;;
  bench-ranks) shift; cmd_bench_ranks "$@" ;;
  *) die "usage: bash .ci/dev.sh {setup|main|test|bench [args...]|bench-ranks [args...]}" ;;
esac
