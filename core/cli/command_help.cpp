#include "cli/command_help.h"

#include <algorithm>

#include "api/command_options.h"
#include "cli/commands.h"

namespace sollens::cli {

namespace {

const Command kCommands[] = {
    {"report", "TRACE|TRACE TRACE ...|DIR|GLOB",
     "every TraceLens and SOL sheet: CSV, report.json, report.xlsx; many ranks",
     R"(  Writes the report sheets as CSV into DIR, and all of them as one report.json
  and one report.xlsx beside them; prints a summary and timings on stderr. With
  several traces (one per rank), a folder or a glob: each rank's report in
  DIR/rank<k>/ and the cross-rank sheets (TraceLens's multi-rank collective
  report, stragglers, per-rank timeline, comm-comp overlap, rank clocks) in
  DIR/.
  After TraceLens's sheets come the speed-of-light sheets of sollens sol
  (sol_metrics, sol_by_layer_type, ...) when the GPU is known (identified, or
  named with --device).
)",
     report_options_usage, run_report},
    {"info", "TRACE", "what the trace is",
     R"(  Prints what the trace is: format and version hints, devices, the GPU
  identified and its peaks, ranks, event counts by category, time span and
  warnings.
)",
     info_options_usage, run_info},
    {"cycles", "TRACE", "repeating kernel patterns: training iterations, decode steps, layers",
     R"(  Finds repeating kernel patterns (training iterations, decode steps,
  transformer layers) and writes them as CSV and JSON into DIR.
)",
     cycles_options_usage, run_cycles},
    {"sol", "TRACE", "speed of light: each op, layer, phase and step against its roofline",
     R"(  Speed of light: each op's roofline estimate (perf model, dense peaks of the
  GPU) against its measured kernel time, by layer type (nn.Module frames), layer
  instance, function, phase (user annotations) and per step and layer (cycle
  detection). Prints the report and writes sol.json and one CSV per table into
  DIR. Collectives are estimated from their bytes and the GPU's NVLink /
  Infinity Fabric bandwidth (deviceDB), where it is known. Kernels replayed by
  CUDA / HIP graph launches count for the ops captured.
)",
     sol_options_usage, run_sol},
    {"solar", "ET", "graph speed of light from a PyTorch Execution Trace (Solar's accounting)",
     R"(  Graph speed of light from a PyTorch Execution Trace (ET, .json or .json.gz):
  Solar's MACs, element traffic and unfused / fused / fused+prefetched SOL times
  (Solar's HEAD definitions and SOL_GUIDE's design intent), per segment and
  whole graph. Writes solar.json, solar.yaml and solar_nodes.csv into DIR.
)",
     solar_options_usage, run_solar},
    {"diff", "BASE NEW", "two runs compared, with thresholds for CI",
     R"(  Compares two runs (BASE is the baseline): each a trace, or a report folder or
  report.json written by sollens report. Writes TraceLens's compare sheets
  (gpu_timeline, ops_summary, kernel_summary, *_intersect_/_only_baseline_/
  _only_variant_ splits of ops_unique_args, unified_perf_summary and the
  roofline sheets), and for two traces op_tree_diff, ops_diff, cycle_diff and
  cycle_positions_diff, as CSV and one diff.json into DIR. Exit code 4 when a
  --fail-if threshold is crossed.
)",
     diff_options_usage, run_diff},
    {"explain", "[CODE]", "what an error, warning or note means and what to do about it",
     R"(  Explains a diagnostic by its code (as report.json's diagnostics.emitted[].code
  and the page's notices name it): its severity, what happened and what to do. Without a code, lists every code; with --markdown, writes the whole
  catalogue as the Markdown table DIAGNOSTICS.md holds. An unknown code is an
  error (exit 2) that names the nearest codes.
)",
     explain_options_usage, run_explain},
};

constexpr const char* kInputs =
    R"(TRACE is a Kineto Chrome-trace JSON file, plain (.json) or gzip (.json.gz).
)";

constexpr const char* kExitCodes =
    R"(exit codes: 0 success (diff: within thresholds); 1 the trace could not be read
            or analysed (diff: or a threshold's figure is in neither run);
            2 wrong usage (diff: a threshold that does not parse); 3 the output
            could not be written; 4 (diff) a threshold was crossed.
)";

// One command's own exit codes: diff's gates add 4, and 1 for a figure in neither run.
constexpr const char* kCommandExitCodes =
    R"(exit codes: 0 success; 1 the input could not be read or analysed; 2 wrong
            usage; 3 the output could not be written.
)";

std::string_view exit_codes_of(const Command& command) {
  return std::string_view(command.name) == "diff" ? kExitCodes : kCommandExitCodes;
}

}  // namespace

const Command* find_command(std::string_view name) {
  const auto found =
      std::find_if(std::begin(kCommands), std::end(kCommands), [&](const Command& c) { return c.name == name; });
  return found == std::end(kCommands) ? nullptr : &*found;
}

std::string command_usage(const Command& command) {
  return "usage: sollens " + std::string(command.name) + " " + std::string(command.inputs) + " [options]\n\n" +
         std::string(command.description) + "\noptions:\n" + command.options_usage() + "\n" +
         std::string(exit_codes_of(command));
}

std::string overview_usage() {
  std::string out = "sollens — GPU-trace analysis for PyTorch profiler (Kineto) traces\n\nusage:\n";
  for (const Command& c : kCommands) {
    out += "  sollens " + std::string(c.name) + " " + std::string(c.inputs) + " [options]\n";
    out += "      " + std::string(c.summary) + "\n";
  }
  out += "  sollens --help | --version\n\n"
         "sollens COMMAND --help (or sollens help COMMAND) lists that command's options.\n\n";
  return out + kInputs + "\n" + kExitCodes;
}

}  // namespace sollens::cli
