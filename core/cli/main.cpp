// sollens: GPU-trace analysis for PyTorch profiler (Kineto) traces.
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/process_clock.h"

namespace {

constexpr const char* kUsage = R"(sollens — GPU-trace analysis for PyTorch profiler (Kineto) traces

usage:
  sollens report TRACE|TRACE TRACE ...|DIR|GLOB [--out DIR] [--include-unlinked] [--include-python]
                       [--device NAME] [--no-roofline] [--no-json] [--no-xlsx]
                       [--no-sol] [--efficiency F]
                       [--corrected] [--link flows|correlation|auto]
                       [--detect-recompute] [--first-occurrence-time]
                       [--micro-idle-thresh-us US] [--group-by-num-kernels]
                       [--short-kernel-threshold-us US] [--short-kernel-histogram-bins N]
                       [--topk-short-kernels N] [--strip-sglang-suffixes]
                       [--rank-summary FILE] [--max-memory MB] [--capture CAPTURE]
      Writes the report sheets as CSV into DIR (default: sollens-report), and
      all of them as one report.json and one report.xlsx beside them; prints a
      summary and timings on stderr. With several traces (one per rank), a
      folder or a glob: each rank's report in DIR/rank<k>/ and the cross-rank
      sheets (TraceLens's multi-rank collective report, stragglers, per-rank
      timeline, comm-comp overlap, rank clocks) in DIR/. After TraceLens's
      sheets come the speed-of-light sheets of sollens sol (sol_metrics,
      sol_by_layer_type, ...) when the GPU is known (identified or --device);
      --no-sol leaves them out, --efficiency F and --capture as for sol.
  --max-memory MB: with many traces, read fewer ranks at once where their
      estimated peak (1.1 x each rank's JSON size) would pass MB megabytes
      (10^6 bytes), and parse each in one pass; each rank's file is dropped as it
      is parsed either way.
  --rank-summary FILE: with one trace, also writes its collective kernels as
      CSV rows of the cross-rank nccl_long sheet, for running each rank as its
      own task and merging them afterwards (README "Fleet scale").
  --corrected: perf-model sheets with sollens's corrected FLOPs/bytes in the
      default columns and TraceLens's in extra columns suffixed (TraceLens)
      (default: the other way round, suffix (corrected)); see
      core/analyses/perf/CORRECTIONS.md.
  --no-roofline: no roofline columns in unified_perf_summary and the perf-model
      sheets even when the GPU is known (TraceLens's output without an arch file),
      and no SOL sheets.
  --group-by-num-kernels: ops_unique_args and the perf-model sheets grouped by
      each row's kernel count too, in a num_kernels column (TraceLens's
      --group_by_num_kernels).
  --short-kernel-threshold-us US (default 10), --short-kernel-histogram-bins N
      (default 100), --topk-short-kernels N (default all rows; negative: all
      but the last -N): the short-kernel study's threshold (whole µs), histogram
      bins and summary rows, as TraceLens's flags of the same names.
  --strip-sglang-suffixes: SGLang's per-call-site op names
      (sglang_profiler::X_<n>) renamed to X before anything is computed, so
      they group together and match their perf models (the first step of
      TraceLens's --enable_pseudo_ops; off by default, as there).
  --link: how GPU events are tied to the runtime call that launched them.
      flows: TraceLens's rule (ac2g flow events; a trace without them links
      nothing, so its GPU timeline is zeros); correlation: by the args
      correlation id, as HTA does; auto (default): correlation when the trace
      has no flow events at all, else flows.
  sollens info TRACE [--device NAME] [--link flows|correlation|auto]
      Prints what the trace is: format and version hints, devices, the GPU
      identified and its peaks, ranks, event counts by category, time span
      and warnings.
  --device NAME: the GPU for roofline figures instead of the one identified
      from the trace's deviceProperties (case-insensitive, e.g. H100_SXM5_80GB,
      B200, MI300X; an unknown name lists the known ones). An unidentified GPU
      gets no roofline columns, never a guessed peak.
  sollens cycles TRACE [--mode all|llm|uplifter] [--out DIR] [--order stream|device|file]
      Finds repeating kernel patterns (training iterations, decode steps,
      transformer layers) per GPU stream in start-time order (--order device:
      per device; file: uplifter's file order) and writes them as CSV and JSON
      into DIR (default: sollens-cycles). --mode all: every pattern
      (cycles.csv, cycle_<k>*.csv); --mode llm: the prefill and decode patterns
      with per-step latency and layers per step (cycles_llm.csv, prefill*.csv,
      decode*.csv); --mode uplifter: uplifter's detection and tables exactly.
  sollens sol TRACE [--device NAME] [--efficiency F] [--capture CAPTURE] [--out DIR]
      Speed of light: each op's roofline estimate (perf model, dense peaks of
      the GPU) against its measured kernel time, by layer type (nn.Module
      frames), layer instance, function, phase (user annotations) and per
      step and layer (cycle detection). Prints the report and writes sol.json
      and one CSV per table into DIR (default: sollens-sol). --efficiency F
      (0 < F <= 1, default 1.0) scales every peak and bandwidth. Collectives are
      estimated from their bytes and the GPU's NVLink / Infinity Fabric
      bandwidth (deviceDB), where it is known. Kernels replayed by CUDA / HIP
      graph launches count for the ops captured: from CAPTURE (the trace of the
      graph capture) when given, else from a capture or an eager run of the
      same kernels in TRACE; the notes say how much was mapped.
  sollens solar ET [--kineto TRACE] [--device NAME] [--out DIR]
      Graph speed of light from a PyTorch Execution Trace (ET, .json or
      .json.gz): Solar's MACs, element traffic and unfused / fused /
      fused+prefetched SOL times (Solar's HEAD definitions and SOL_GUIDE's
      design intent), per segment and whole graph. --kineto: the Kineto trace
      of the same run; ET nodes are linked to its ops and their measured GPU
      time is put beside the estimates (its GPU also picks the device).
      Writes solar.json, solar.yaml and solar_nodes.csv into DIR (default:
      sollens-solar).
      decode*.csv).
  sollens diff BASE NEW [--names A,B] [--out DIR] [--fail-if EXPR]...
                       [--markdown FILE] [--junit FILE]
      Compares two runs (BASE is the baseline): each a trace, or a report folder
      or report.json written by sollens report. Writes TraceLens's compare
      sheets (gpu_timeline, ops_summary, kernel_summary, *_intersect_/
      _only_baseline_/_only_variant_ splits of ops_unique_args,
      unified_perf_summary and the roofline sheets), and for two traces
      op_tree_diff, ops_diff, cycle_diff and cycle_positions_diff, as CSV and one
      diff.json into DIR (default: sollens-diff). --names: the two tags of the
      columns (default baseline,variant).
  --fail-if EXPR: a threshold on a figure's change, e.g.
      'total time > +5%', 'op aten::mm time > +10%', 'kernel NAME time > +50us',
      'step latency > +3%', 'gpu_timeline.idle_time > +0.2ms',
      'ops_summary[aten::mm].Count > +0' (core/analyses/diff/README.md).
      --markdown FILE: a summary for a pull-request comment; --junit FILE: the
      thresholds as JUnit XML test cases.
  sollens --help | --version

TRACE is a Kineto Chrome-trace JSON file, plain (.json) or gzip (.json.gz).

exit codes: 0 success (diff: within thresholds); 1 the trace could not be read
            or analysed (diff: or a threshold's figure is in neither run);
            2 wrong usage (diff: a threshold that does not parse); 3 the output
            could not be written; 4 (diff) a threshold was crossed.
)";

}  // namespace

int main(int argc, char** argv) {
  sollens::cli::start_process_clock();
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return 2;
  }
  const std::string command = args[0];
  args.erase(args.begin());
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return 0;
  }
  if (command == "--version") {
    std::cout << "sollens " << sollens::cli::kVersion << "\n";
    return 0;
  }
  for (const auto& a : args)
    if (a == "--help" || a == "-h") {
      std::cout << kUsage;
      return 0;
    }
  if (command == "report") return sollens::cli::run_report(args);
  if (command == "info") return sollens::cli::run_info(args);
  if (command == "cycles") return sollens::cli::run_cycles(args);
  if (command == "sol") return sollens::cli::run_sol(args);
  if (command == "solar") return sollens::cli::run_solar(args);
  if (command == "diff") return sollens::cli::run_diff(args);
  std::cerr << "sollens: unknown command '" << command << "' (try: sollens --help)\n";
  return 2;
}
