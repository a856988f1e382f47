// The temporal breakdown on hand-made traces, including the condition where HTA's own
// get_temporal_breakdown fails its `non_compute_time >= 0` assertion (as on
// h200-pt211-gpt2-train and tracelens-h100-qwen1.5-0.5b): a sub-µs memset that HTA's
// rounding turns into an interval ending 1 µs before it starts.
#include <catch2/catch.hpp>

#include "analyses/hta/temporal_breakdown.h"
#include "support/table_column.h"
#include "support/test_trace.h"

using namespace sollens;
using namespace sollens::hta;
using sollens::test::col;

namespace {

std::string gpu_event(const char* cat, const char* name, const char* ts, const char* dur, int correlation) {
  return std::string(R"({"ph": "X", "cat": ")") + cat + R"(", "name": ")" + name +
         R"(", "pid": 0, "tid": 7, "ts": )" + ts + R"(, "dur": )" + dur + R"(, "args": {"stream": 7, "correlation": )" +
         std::to_string(correlation) + "}}";
}

std::string trace_of(std::initializer_list<std::string> events) {
  std::string json = R"({"traceEvents": [)";
  bool first = true;
  for (const std::string& e : events) {
    if (!first) json += ",";
    json += e;
    first = false;
  }
  return json + "]}";
}

}  // namespace

TEST_CASE("temporal breakdown: HTA's failing case, a sub-µs memset rounded to an inverted interval",
          "[hta][temporal_breakdown]") {
  // The memset's 30.2 µs start is fractional, so HTA rounds every start up and every end
  // down: gemm [10, 20], memset [ceil 30.2, floor 30.7] = [31, 30], gemm2 [40, 50].
  const auto t = test::load_with_tree(trace_of({gpu_event("kernel", "gemm", "10", "10", 1),
                                                gpu_event("gpu_memset", "Memset (Device)", "30.2", "0.5", 2),
                                                gpu_event("kernel", "gemm2", "40", "10", 3)}));
  const HtaTrace trace(*t.store);
  // HTA's arithmetic: kernel time 50 − 10 = 40; busy 10 + (30 − 31) + 10 = 19, so idle
  // 21; compute 20; non-compute 40 − 20 − 21 = −1 < 0: HTA's assertion fails.
  // sollens empties the inverted memset ([31, 31]): busy 20, idle 20, compute 20,
  // non-compute 0 — the memset's 0.5 µs is below HTA's 1 µs resolution, and the GPU was
  // busy only with the two gemms.
  const TemporalBreakdown b = temporal_breakdown(trace, breakdown_events(trace));
  CHECK(b.inverted_events_emptied);
  CHECK(b.kernel_us == 40);
  CHECK(b.idle_us == 20);
  CHECK(b.compute_us == 20);
  CHECK(b.non_compute_us == 0);

  const Table table = temporal_breakdown_table(trace, t.tree, HtaOptions{});
  REQUIRE(table.num_rows() == 1);
  CHECK(col(table, "idle_time_pctg").float_at(0) == 50);
  CHECK(col(table, "non_compute_time_pctg").float_at(0) == 0);
}

TEST_CASE("temporal breakdown: HTA's arithmetic is kept wherever it is valid", "[hta][temporal_breakdown]") {
  // gemm [10, 20], a sub-µs compute kernel [31, 30] (inverted), memcpy [40, 45],
  // gemm2 [50, 60]. HTA: kernel time 50; busy 10 − 1 + 5 + 10 = 24, idle 26; compute
  // 10 − 1 + 10 = 19; non-compute 50 − 19 − 26 = 5 ≥ 0: HTA's numbers stand (as on
  // h200-pt211-resnet50-train, whose reference has them).
  const auto t = test::load_with_tree(trace_of({gpu_event("kernel", "gemm", "10", "10", 1),
                                                gpu_event("kernel", "tiny", "30.2", "0.5", 2),
                                                gpu_event("gpu_memcpy", "Memcpy DtoD", "40", "5", 3),
                                                gpu_event("kernel", "gemm2", "50", "10", 4)}));
  const HtaTrace trace(*t.store);
  const TemporalBreakdown b = temporal_breakdown(trace, breakdown_events(trace));
  CHECK_FALSE(b.inverted_events_emptied);
  CHECK(b.kernel_us == 50);
  CHECK(b.idle_us == 26);
  CHECK(b.compute_us == 19);
  CHECK(b.non_compute_us == 5);
  const Table table = temporal_breakdown_table(trace, t.tree, HtaOptions{});
  CHECK(col(table, "compute_time_pctg").float_at(0) == 38);       // 19 / 50
  CHECK(col(table, "non_compute_time_pctg").float_at(0) == 10);   // 5 / 50
}

TEST_CASE("temporal breakdown: the last profiler step's kernels are left out, as HTA's loader drops them",
          "[hta][temporal_breakdown]") {
  // Two steps (two ProfilerStep# names): the kernel launched at 60, in the last step, is
  // dropped; the one launched at 5 stays. A sync event on the stream counts as busy,
  // non-compute time.
  const auto t = test::load_with_tree(trace_of({
      R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 50})",
      R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 50, "dur": 50})",
      R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 5, "dur": 2, "args": {"correlation": 1}})",
      R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 60, "dur": 2, "args": {"correlation": 2}})",
      gpu_event("kernel", "k1", "10", "10", 1), gpu_event("kernel", "k2", "70", "10", 2),
      gpu_event("cuda_sync", "Stream Sync", "25", "5", 3)}));
  const HtaTrace trace(*t.store);
  const TemporalBreakdown b = temporal_breakdown(trace, breakdown_events(trace));
  // k1 [10, 20] and the sync [25, 30]: kernel time 20, busy 15, idle 5, compute 10.
  CHECK(b.kernel_us == 20);
  CHECK(b.idle_us == 5);
  CHECK(b.compute_us == 10);
  CHECK(b.non_compute_us == 5);
}
