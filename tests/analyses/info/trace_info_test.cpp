// The trace facts the page's "most GPU time is left out" banner reads: GPU time in
// all and in the GPU events with no launch linked (tests/fixtures/synthetic/
// correlation_only_launches.json, a trace without flow events).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "analyses/info/trace_info.h"
#include "ingest/trace_reader.h"

using namespace sollens;

namespace {

std::unique_ptr<EventStore> load_correlation_only() {
  std::ifstream in(std::filesystem::path(SOLLENS_FIXTURES_DIR) / "synthetic/correlation_only_launches.json",
                   std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(ss.str()));
  REQUIRE(r.ok());
  return std::move(r.value());
}

TraceInfo describe_linked_by(const EventStore& s, LinkMode mode) {
  TreeOptions o;
  o.link = mode;
  return describe_trace(s, TraceTree::build(s, o));
}

}  // namespace

// GPU events' durations (µs): gemm 10, add_kernel 5, Memcpy HtoD 6, nccl 8 (each with a
// launch of the same correlation id), orphan 4 (correlation 99: no launch). Sum 33.
TEST_CASE("trace info: GPU time of the unlinked events, linked by correlation id") {
  const auto s = load_correlation_only();
  const TraceInfo info = describe_linked_by(*s, LinkMode::kAuto);
  CHECK(info.linked_by == LinkMode::kCorrelation);
  CHECK(info.gpu_time_us == 33);
  CHECK(info.unlinked_gpu_time_us == 4);
}

// TraceLens's rule links nothing without flow events: all 33 µs are left out.
TEST_CASE("trace info: GPU time of the unlinked events, flows only") {
  const auto s = load_correlation_only();
  const TraceInfo info = describe_linked_by(*s, LinkMode::kFlows);
  CHECK(info.linked_by == LinkMode::kFlows);
  CHECK(info.linked_gpu_events == 0);
  CHECK(info.gpu_time_us == 33);
  CHECK(info.unlinked_gpu_time_us == 33);
}

namespace {

std::vector<Code> warning_codes(const std::string& json, LinkMode mode) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  std::vector<Code> codes;
  for (const Diagnostic& w : describe_linked_by(*r.value(), mode).warnings) codes.push_back(w.code);
  return codes;
}

bool contains(const std::vector<Code>& codes, Code code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

}  // namespace

// Each finding of the call tree comes with its own code (and every ingest warning keeps
// its own); a trace with none of them has no warning.
TEST_CASE("trace info: the tree's findings under their codes", "[info][codes]") {
  const std::string cpu = R"({"ph":"X","cat":"cpu_op","pid":1,"tid":1,)";
  const std::string kernel = R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":3,"dur":1,"args":{"correlation":7}})";
  const std::string launch = R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","tid":1,"ts":2,"dur":1,"args":{"correlation":7},"pid":)";
  const std::string devices = R"(,"deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3"}])";
  struct Case {
    const char* what;
    std::string json;
    LinkMode mode;
    Code code;
  };
  const std::vector<Case> cases = {
      {"a CPU op overlapping its parent without nesting",
       R"({"traceEvents":[)" + cpu + R"("name":"a","ts":0,"dur":10},)" + cpu + R"("name":"b","ts":5,"dur":15}]})",
       LinkMode::kAuto, Code::host_events_dropped},
      {"a kernel whose launch is not in the trace",
       R"({"traceEvents":[)" + kernel + "]" + devices + "}", LinkMode::kFlows, Code::gpu_events_unlinked},
      {"linked by correlation id", R"({"traceEvents":[)" + launch + "1}," + kernel + "]" + devices + "}",
       LinkMode::kCorrelation, Code::linked_by_correlation},
      {"one correlation id launched in two processes",
       R"({"traceEvents":[)" + launch + "1}," + launch + "2}," + kernel + "]" + devices + "}",
       LinkMode::kCorrelation, Code::ambiguous_correlations},
      {"legacy flow events only",
       R"({"traceEvents":[)" + launch + R"(1},{"ph":"s","cat":"async","name":"f","id":7,"pid":1,"tid":1,"ts":2},)" +
           kernel + "]" + devices + "}",
       LinkMode::kAuto, Code::legacy_flows},
      {"GPU events without deviceProperties", R"({"traceEvents":[)" + launch + "1}," + kernel + "]}",
       LinkMode::kCorrelation, Code::no_device_properties},
      {"an ingest warning passes through", R"({"traceEvents":[{},)" + cpu + R"("name":"a","ts":0,"dur":1}]})",
       LinkMode::kAuto, Code::empty_events},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    CHECK(contains(warning_codes(c.json, c.mode), c.code));
  }
  const std::string clean = R"({"traceEvents":[)" + cpu + R"("name":"a","ts":0,"dur":10},)" + cpu +
                            R"("name":"b","ts":2,"dur":3}]})";
  CHECK(warning_codes(clean, LinkMode::kAuto).empty());
}
