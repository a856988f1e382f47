#pragma once
// The options a front end passes as words (the CLI's flags, the page's selectors), read
// in one place so that both mean the same by them and default alike.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/cycles/cycle_sheets.h"
#include "analyses/cycles/kernel_sequence.h"

namespace sollens {

// What a report is computed with.
struct ReportRequest {
  std::string device_name;        // "": the GPU identified from the trace
  bool corrected = false;         // perf-model sheets with the corrected FLOPs/bytes first
  bool include_unlinked = false;  // GPU timeline: GPU events with no launch too
  bool no_roofline = false;       // no roofline columns even when the GPU is known
  // TraceLens --detect_recompute: is_recompute columns; the trace must be modeled with
  // its python frames (TreeOptions::include_python).
  bool detect_recompute = false;
  bool first_occurrence_time = false;  // ops_unique_args: TraceLens's first_occurrence_time
  // gpu_timeline: idle split into micro (gaps under this many µs) and macro idle.
  std::optional<double> micro_idle_thresh_us;
  // The short-kernel study: kernels shorter than this many µs, the histogram's bin
  // count, and the summary's first N rows (pandas head(N): a negative N drops the last
  // -N rows); TraceLens's defaults.
  int64_t short_kernel_threshold_us = 10;
  int64_t short_kernel_histogram_bins = 100;
  std::optional<int64_t> topk_short_kernels;
  // TraceLens --group_by_num_kernels: ops_unique_args and the perf-model sheets grouped
  // by each row's kernel count too.
  bool group_by_num_kernels = false;
  // The speed-of-light sheets (analyses/sol) after TraceLens's, for the report's GPU;
  // none without a GPU with peaks or with no_roofline. `sollens report` asks for them
  // unless --no-sol; the page shows SOL in a view of its own and leaves them out.
  bool sol_sheets = false;
  double sol_efficiency = 1.0;  // SolOptions::efficiency_factor, in (0, 1]
};

// How cycles are detected and shown: every pattern (structure detection), the LLM view
// (prefill / decode), or uplifter's own pipeline and tables, for comparison.
enum class CycleMode : uint8_t { kAll, kLlm, kUplifter };

// What the cycles analysis is run with.
struct CyclesRequest {
  CycleMode mode = CycleMode::kAll;
  KernelOrder order = KernelOrder::kStartTimePerStream;  // the core's default
};

// The words each option takes, for usage messages.
inline constexpr const char* kCycleModeWords = "all, llm or uplifter";
inline constexpr const char* kKernelOrderWords = "device, stream or file";

// "all" | "llm" | "uplifter"; nullopt for anything else.
std::optional<CycleMode> parse_cycle_mode(std::string_view word);
// The detection options and the tables a mode asks for.
CycleOptions cycle_options(const CyclesRequest& request);
CycleSheetMode cycle_sheet_mode(CycleMode mode);
// "device" | "stream" | "file"; "" is the default (per device and stream). nullopt
// for anything else.
std::optional<KernelOrder> parse_kernel_order(std::string_view word);
// A report switch without a value (--corrected, --include-unlinked, --no-roofline,
// --detect-recompute, --first-occurrence-time, --group-by-num-kernels) set
// in `request`; false when `flag` is none of them.
bool apply_report_flag(std::string_view flag, ReportRequest& request);
// Whether `flag` is a report option with a value (--micro-idle-thresh-us,
// --short-kernel-threshold-us, --short-kernel-histogram-bins, --topk-short-kernels).
bool is_report_value_option(std::string_view flag);
// Sets the report option `flag` (is_report_value_option) to `value` in `request`;
// "" when done, else why the value is refused (`request` unchanged).
std::string apply_report_value(std::string_view flag, std::string_view value, ReportRequest& request);
// "" when `name` is a known device database name (any case) or empty, else why not,
// listing the known names.
std::string unknown_device_error(std::string_view name);
// The device database's ids a report can be computed for (those with peaks, as
// unknown_device_error accepts them), sorted, for a device selector.
std::vector<std::string> device_names();

}  // namespace sollens
