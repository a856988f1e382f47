// The trace facts the page's "most GPU time is left out" banner reads: GPU time in
// all and in the GPU events with no launch linked (tests/fixtures/synthetic/
// correlation_only_launches.json, a trace without flow events).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

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
