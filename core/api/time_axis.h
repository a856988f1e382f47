#pragma once
// Session::time_axis: the time axis's sheets (analyses/time_axis) with what they draw
// over the events computed here: the default cycles (kept by the session), HTA's
// critical path and the inferred one (HTA's default options: the path of ProfilerStep
// where the trace has it), and each GPU event's SOL efficiency from Session::sol (only
// for a GPU with peaks). Also the trimmed trace for Perfetto UI.
#include <memory>
#include <ostream>
#include <string>
#include <string_view>

#include "analyses/time_axis/time_axis.h"
#include "api/speed_of_light.h"
#include "base/status.h"

namespace sollens {

struct TimeAxisRequest {
  std::string device_name;  // the SOL device; "": identified from the trace
  bool critical_path = true;
  double launch_delay_cutoff_us = 100;  // HTA's default cutoff (--hta-launch-delay-cutoff)
  size_t max_launch_delays = 1000;
};

struct TimeAxisResult {
  TimeAxis axis;
  std::unique_ptr<SolResult> sol;  // null when the GPU has no peaks (no efficiencies)
  double build_ms = 0;             // the three sheets alone (the inputs not counted)
  double inputs_ms = 0;            // cycles, critical paths, SOL: the sum of the three below
  double cycles_ms = 0, critical_paths_ms = 0, sol_ms = 0;
};

// Trace bytes (plain JSON) cut to [start_us, end_us] of the trace's clock
// (writers/trace_trim.h): ok when written, else bad_range or not_a_trace.
Status write_trimmed_trace_text(std::string_view trace_json, double start_us, double end_us, std::ostream& out);

}  // namespace sollens
