// Session's speed-of-light members (declared in session.h, types in speed_of_light.h).
#include "api/speed_of_light.h"

#include <chrono>

#include "analyses/solar/solar_intermediates.h"
#include "api/api_guard.h"
#include "api/session.h"
#include "base/stopwatch.h"
#include "devices/device_db.h"
#include "ingest/execution_trace_reader.h"

namespace sollens {

namespace {

// The GPU Solar's times are for: the one asked for, else the Kineto trace's; never a
// guess. Without one the document carries the notice instead of times.
void choose_solar_hardware(const SolarRequest& request, const Session& session, solar::SolarInputs& in) {
  const DeviceSpec* spec = nullptr;
  if (!request.device_name.empty()) {
    spec = find_device(request.device_name);
  } else if (session.loaded()) {
    const DeviceIdentification id = session.identify_device();
    spec = id.roofline_spec();
    if (!spec) in.hardware_notice = id.notice;
  } else {
    in.hardware_notice = request.no_device_notice;
  }
  if (spec) {
    in.hardware = solar::solar_hardware(*spec);
    if (!in.hardware) in.hardware_notice = spec->id + " has no boost clock, bandwidth or fp32 peak in deviceDB";
  }
}

}  // namespace

std::string sol_console_text(const SolResult& result) { return sol_console_report(result.report); }

SolResult Session::sol(const SolRequest& request) const {
  SolOptions options;
  options.efficiency_factor = request.efficiency;
  options.capture = capture();
  SolResult result{identify_device(request.device_name), {}};
  result.report = analyze_sol(*store_, python_tree(), result.device, options, &default_cycles());
  return result;
}

Result<LoadStats> Session::load_execution_trace(PaddedBuffer bytes) {
  execution_graph_.reset();  // a failed load keeps none
  return guarded("reading the Execution Trace", [&]() -> Result<LoadStats> {
    const auto t0 = std::chrono::steady_clock::now();
    Result<std::unique_ptr<ExecutionGraph>> loaded = sollens::load_execution_trace(std::move(bytes));
    if (!loaded.ok()) return loaded.status();
    execution_graph_ = std::move(*loaded);
    return LoadStats{ms_since(t0), 0};
  });
}

SolarResult Session::solar(const SolarRequest& request) const {
  const ExecutionGraph& graph = *execution_graph_;
  const solar::SolarGraph solar_graph = solar::build_solar_graph(graph);
  solar::SolarInputs in;
  in.graph = &graph;
  in.solar = &solar_graph;
  if (loaded()) in.measured = solar::measure_run(solar_graph, graph, *store_, *tree_);
  choose_solar_hardware(request, *this, in);
  SolarResult result;
  result.measured = in.measured.has_value();
  result.report = solar::make_solar_report(in);
  result.intermediates = solar::intermediates_table(graph, solar_graph);
  return result;
}

}  // namespace sollens
