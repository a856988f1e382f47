#pragma once
// The CI gate: thresholds on the change of one figure between two runs.
//
//   EXPR   := FIGURE OP CHANGE
//   FIGURE := total time                 gpu_timeline row total_time, "time ms"
//           | gpu_timeline.TYPE          gpu_timeline row TYPE (busy_time, idle_time, ...)
//           | op NAME time | op NAME count       ops_summary: total_direct_kernel_time_ms / Count
//           | kernel NAME time | kernel NAME count  kernel_summary: Kernel duration (µs)_sum / _count
//           | step latency | layer latency       cycle_diff: the first pattern's step / layer
//           | SHEET[KEY].COLUMN          any compared sheet: the row whose first column is KEY
//                                        (cycle_diff: whose level is KEY)
//   OP     := >  >=  <  <=
//   CHANGE := [+|-]NUMBER%               relative to the baseline (100 · (new − base) / base)
//           | [+|-]NUMBER[us|ms|s]       absolute, in the figure's unit (µs or ms figures
//                                        convert a unit given here); no unit: as the figure
//
// NAME may be written in double quotes (needed when it contains " > "). The change is
// new − base; a row only the new run has is +inf % (and its value absolute); a row only
// the baseline has is −100 %. A figure found in neither run cannot be evaluated.
#include <optional>
#include <string>
#include <vector>

#include "analyses/diff/table_compare.h"
#include "base/status.h"
#include "table/table.h"

namespace sollens {

enum class GateOp : uint8_t { kGreater, kGreaterEqual, kLess, kLessEqual };

struct GateExpr {
  std::string text;     // as given
  std::string sheet;    // compared sheet
  std::string key;      // value of its first column
  std::string metric;   // the metric column, unprefixed
  GateOp op = GateOp::kGreater;
  double threshold = 0;
  bool percent = false;
  double unit_scale_us = 0;  // threshold unit in µs (0: no unit given)
};

// The expression, or bad_option_value when the text is not one.
Result<GateExpr> parse_gate(const std::string& text);

struct GateResult {
  GateExpr expr;
  std::optional<double> baseline, variant;
  double change = 0;        // in % or in the figure's unit, as the threshold
  bool failed = false;      // the threshold was crossed
  Status error;             // gate_not_evaluable when the figure is not in the compared sheets
};

GateResult evaluate_gate(const GateExpr& expr, const std::vector<Table>& compared, const CompareTags& tags);

}  // namespace sollens
