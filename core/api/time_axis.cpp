#include "api/time_axis.h"

#include <chrono>

#include "analyses/hta/critical_path/critical_path.h"
#include "analyses/hta/hta_trace.h"
#include "api/session.h"
#include "base/stopwatch.h"
#include "writers/trace_trim.h"

namespace sollens {
namespace {

// Each GPU event's op's estimate over its measured time, capped at 1 (an op measured
// faster than its estimate is flagged by SOL's own sheets, not here).
std::vector<float> gpu_efficiencies(size_t events, const SolOps& ops) {
  std::vector<float> out(events, -1.0f);
  for (size_t g = 0; g < ops.op_of_gpu_event.size() && g < events; ++g) {
    const int32_t i = ops.op_of_gpu_event[g];
    if (i < 0) continue;
    const SolOp& op = ops.ops[static_cast<size_t>(i)];
    if (!op.estimated || !(op.measured_us > 0)) continue;
    out[g] = static_cast<float>(std::min(1.0, op.roofline.estimate_us / op.measured_us));
  }
  return out;
}

}  // namespace

TimeAxisResult Session::time_axis(const TimeAxisRequest& request) const {
  const auto t0 = std::chrono::steady_clock::now();
  TimeAxisResult result;
  TimeAxisInputs in;
  in.cycles = &default_cycles();  // kept by the session: free after the first time
  result.cycles_ms = ms_since(t0);
  const auto t_paths = std::chrono::steady_clock::now();
  in.launch_delay_cutoff_us = request.launch_delay_cutoff_us;
  in.max_launch_delays = request.max_launch_delays;
  std::optional<hta::HtaTrace> trace;
  hta::CriticalPath hta_path, inferred;
  if (request.critical_path) {
    trace.emplace(*store_);
    const hta::HtaOptions options;
    hta_path = hta::critical_path(*trace, options, false);
    inferred = hta::critical_path(*trace, options, true);
    in.critical_paths = {{&hta_path, "HTA"}, {&inferred, "inferred"}};
  }
  result.critical_paths_ms = ms_since(t_paths);
  const auto t_sol = std::chrono::steady_clock::now();
  if (identify_device(request.device_name).spec) {
    result.sol = std::make_unique<SolResult>(sol({request.device_name, 1.0}));
    in.gpu_sol_efficiency = gpu_efficiencies(store_->size(), result.sol->report.ops);
    in.sol_ops = &result.sol->report.ops;
  }
  result.sol_ms = ms_since(t_sol);
  result.inputs_ms = ms_since(t0);
  const auto t1 = std::chrono::steady_clock::now();
  result.axis = build_time_axis(*store_, *tree_, in);
  result.build_ms = ms_since(t1);
  return result;
}

Status write_trimmed_trace_text(std::string_view trace_json, double start_us, double end_us, std::ostream& out) {
  if (!(end_us >= start_us)) return Status(Code::bad_range, "the range ends before it starts");
  if (!write_trimmed_trace(trace_json, start_us, end_us, out))
    return Status(Code::not_a_trace, "this is not a Kineto trace: no traceEvents array was found");
  return {};
}

}  // namespace sollens
