// The critical path overlaid on the trace for Perfetto UI: copies on a track of their own
// and flow arrows for the dependency, launch and sync edges.
#include <catch2/catch.hpp>

#include <sstream>

#include "analyses/hta/critical_path/critical_path.h"
#include "support/test_trace.h"
#include "writers/critical_path_trace.h"

using namespace sollens;

namespace {

// A launch (pid 5, tid 5, [0, 4]) and its kernel (pid 0, tid 7, [6, 46]) after a flow id 9.
const char* kTrace =
    R"({"traceEvents": [{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 5, "tid": 5, )"
    R"("ts": 0, "dur": 4, "args": {"correlation": 1}}, {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, )"
    R"("tid": 7, "ts": 6, "dur": 40, "args": {"device": 0, "stream": 7, "correlation": 1}}, )"
    R"({"ph": "s", "id": 9, "pid": 5, "tid": 5, "ts": 0, "cat": "ac2g", "name": "ac2g"}]})";

hta::CriticalPath launch_path() {
  hta::CriticalPath p;
  hta::CriticalPathStep launch;
  launch.from_event = 0;
  launch.to_event = 1;
  launch.from_start = true;
  launch.to_start = true;
  launch.type = hta::CpEdgeType::kKernelLaunchDelay;
  launch.duration = 6;
  launch.bound_by = hta::BoundBy::kKernelLaunchOverhead;
  hta::CriticalPathStep span = launch;
  span.from_event = 1;
  span.to_start = false;
  span.type = hta::CpEdgeType::kOperatorKernel;
  span.duration = 40;
  span.event = 1;
  span.bound_by = hta::BoundBy::kGpuCompute;
  p.steps = {launch, span};
  return p;
}

}  // namespace

TEST_CASE("critical path trace: copies, names and one flow pair per drawn edge", "[writers][critical_path_trace]") {
  const auto store = test::load_store(kTrace);
  const std::vector<std::string> events = critical_path_trace_events(*store, launch_path());
  // process name, a thread name per original track (2), a copy per event (2), one flow pair.
  REQUIRE(events.size() == 7);
  CHECK(events[0] == R"({"ph":"M","name":"process_name","pid":6,"tid":0,"args":{"name":"Critical path"}})");
  CHECK(events[1] == R"({"ph":"M","name":"thread_name","pid":6,"tid":1,"args":{"name":"pid 5 tid 5"}})");
  // The kernel carries the path's 40 µs and its class; the launch call none (the launch edge
  // is attributed to no event).
  CHECK(events[4] == R"({"ph":"X","cat":"critical_path","name":"k1","pid":6,"tid":2,"ts":6.0,"dur":40.0,)"
                     R"("args":{"event":1,"critical_us":40.0,"bound_by":"gpu_compute_bound","original_cat":"kernel"}})");
  // The flow id follows the trace's largest (9); both ends at the events' starts.
  CHECK(events[5] == R"({"ph":"s","id":10,"pid":5,"tid":5,"ts":0.0,"cat":"critical_path","name":"critical_path",)"
                     R"("args":{"weight":6.0,"critical":true,"type":"critical_path_kernel_launch_delay","inferred":false}})");
  CHECK(events[6] == R"({"ph":"f","id":10,"pid":0,"tid":7,"ts":6.0,"cat":"critical_path","name":"critical_path",)"
                     R"("bp":"e","args":{"weight":6.0,"critical":true,"type":"critical_path_kernel_launch_delay",)"
                     R"("inferred":false}})");
}

TEST_CASE("critical path trace: the original trace with the events appended", "[writers][critical_path_trace]") {
  const auto store = test::load_store(kTrace);
  std::ostringstream out;
  REQUIRE(write_critical_path_trace(kTrace, *store, launch_path(), out));
  const std::string text = out.str();
  CHECK(text.starts_with(std::string(kTrace).substr(0, std::string(kTrace).size() - 3)));
  CHECK(text.find(R"("name":"process_name")") != std::string::npos);
  CHECK(text.ends_with("}]}"));
}
