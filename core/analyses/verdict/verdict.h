#pragma once
// The verdict: what an expert would say first about a trace, as one sheet ("verdict")
// of findings, each a row of
//   finding  a key ("headline", "bound_by", "gpu_idle_pct", "steps.decode", "top_op.1", ...)
//   value    its number (null for words only), in `unit` ("%", "ms", "count", "")
//   words    the finding in a sentence, with its numbers
//   view     the page's view that shows the evidence ("" none)
//   target   the row that view should select (an op, kernel or function name; "" none)
//   target_group  where the target is in that view (an op's category in the ops view)
// from results the report already has: the GPU timeline, the SOL wall and its idle split,
// the steps per phase (sol_by_step), ops_summary, kernel_summary and sol_by_function.
// The rules for "bound by" are in bound_by.h; README.md explains them.
#include <string>

#include "table/table.h"

namespace sollens {

struct GpuTimeline;
struct SolWall;
struct SolReport;

namespace verdict {

inline constexpr size_t kTopN = 5;

struct VerdictInputs {
  const GpuTimeline* timeline = nullptr;   // required
  const SolWall* wall = nullptr;           // the idle split; required
  // The SOL analysis (steps, estimates); null where it was not run. Its estimates count
  // only where `device` is set (the GPU the estimates are for).
  const SolReport* sol = nullptr;
  std::string device;
  const Table* ops_summary = nullptr;      // null: the trace has no CPU ops
  const Table* kernel_summary = nullptr;
};

Table verdict_table(const VerdictInputs& in);

// The headline sentence of a verdict sheet ("" when it has none).
std::string verdict_headline(const Table& verdict);

}  // namespace verdict
}  // namespace sollens
