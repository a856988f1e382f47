// HTA's idle-time breakdown and its interval statistics on a hand-made stream.
#include <catch2/catch.hpp>

#include <cmath>

#include "analyses/hta/idle_time.h"
#include "support/table_column.h"
#include "support/test_trace.h"

using namespace sollens;
using namespace sollens::hta;
using sollens::test::col;

namespace {

// Launch at `launch` of kernel `name` [ts, ts + dur] on stream 7 (whole µs: no rounding).
std::string launched(int correlation, int launch, const char* name, int ts, int dur) {
  const std::string c = std::to_string(correlation);
  return R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": )" +
         std::to_string(launch) + R"(, "dur": 1, "args": {"correlation": )" + c + "}}," +
         R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(ts) +
         R"(, "dur": )" + std::to_string(dur) + R"(, "args": {"stream": 7, "correlation": )" + c + "}}";
}

}  // namespace

TEST_CASE("idle time: host wait, kernel wait, other, and the statistics of each", "[hta][idle_time]") {
  const std::string json = R"({"traceEvents": [)" + launched(1, 0, "k1", 10, 10) +  // [10, 20]
                           "," + launched(2, 5, "k2", 25, 10) +   // gap 5, launched before k1 ended: kernel wait
                           "," + launched(3, 50, "k3", 60, 10) +  // launched at 50 > 35: host wait 25
                           "," + launched(4, 55, "k4", 72, 10) +  // gap 2, launched in time: kernel wait
                           "," + launched(5, 60, "k5", 182, 10) +  // gap 100 ≥ 30: other
                           "]}";
  const auto t = test::load_with_tree(json);
  const HtaTrace trace(*t.store);
  const auto streams = idle_time_by_stream(trace, breakdown_events(trace), 30);
  REQUIRE(streams.size() == 1);
  CHECK(streams[0].stream == 7);
  CHECK(streams[0].categories[kHostWait].idle_us == 25);
  CHECK(streams[0].categories[kKernelWait].idle_us == 7);
  CHECK(streams[0].categories[kOtherIdle].idle_us == 100);

  const Table breakdown = idle_time_breakdown_table(trace, t.tree, HtaOptions{});
  REQUIRE(breakdown.num_rows() == 3);
  CHECK(col(breakdown, "idle_category").string_at(0) == "host_wait");
  CHECK(col(breakdown, "idle_time_ratio").float_at(0) == 0.19);  // 25 / 132 = 0.1894 → 0.19
  CHECK(col(breakdown, "idle_time_ratio").float_at(1) == 0.05);  // 7 / 132 = 0.0530
  CHECK(col(breakdown, "idle_time_ratio").float_at(2) == 0.76);  // 100 / 132 = 0.7576

  const Table stats = idle_time_interval_stats_table(trace, t.tree, HtaOptions{});
  REQUIRE(stats.num_rows() == 3);
  // kernel_wait gaps {5, 2}: mean 3.5, sample std |5 − 2| / √2 = 2.1213 → 2.12, quartiles
  // by linear interpolation 2.75, 3.5, 4.25.
  CHECK(col(stats, "idle_category").string_at(1) == "kernel_wait");
  CHECK(col(stats, "count").float_at(1) == 2);
  CHECK(col(stats, "mean").float_at(1) == 3.5);
  CHECK(col(stats, "std").float_at(1) == 2.12);
  CHECK(col(stats, "25%").float_at(1) == 2.75);
  CHECK(col(stats, "50%").float_at(1) == 3.5);
  CHECK(col(stats, "75%").float_at(1) == 4.25);
  // host_wait has one gap: no std.
  CHECK(col(stats, "count").float_at(0) == 1);
  CHECK(col(stats, "std").is_null(0));
}

TEST_CASE("idle time: every stream has an other row, even with no such gap", "[hta][idle_time]") {
  const std::string json = R"({"traceEvents": [)" + launched(1, 0, "k1", 10, 10) + "," +
                           launched(2, 5, "k2", 25, 10) + "]}";  // one kernel-wait gap of 5
  const auto t = test::load_with_tree(json);
  const HtaTrace trace(*t.store);
  const Table breakdown = idle_time_breakdown_table(trace, t.tree, HtaOptions{});
  REQUIRE(breakdown.num_rows() == 2);  // kernel_wait, other (the first kernel's category)
  CHECK(col(breakdown, "idle_category").string_at(1) == "other");
  CHECK(col(breakdown, "idle_time").float_at(1) == 0);
  const Table stats = idle_time_interval_stats_table(trace, t.tree, HtaOptions{});
  CHECK(col(stats, "count").float_at(1) == 0);
  CHECK(col(stats, "mean").is_null(1));
}

TEST_CASE("idle time: a kernel without a launch call is compared with the trace's first event",
          "[hta][idle_time]") {
  // k2 has no runtime call in the trace. HTA's join lands on its table's first row: the
  // first complete event in file order, here the annotation at 100. 100 > k1's end 20,
  // so k2's gap of 2 is host wait, not kernel wait.
  const std::string json =
      R"({"traceEvents": [{"ph": "X", "cat": "user_annotation", "name": "step", "pid": 1, "tid": 1, "ts": 100, "dur": 1},)" +
      launched(1, 0, "k1", 10, 10) +
      R"(,{"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 22, "dur": 5, "args": {"stream": 7, "correlation": 9}}]})";
  const auto t = test::load_with_tree(json);
  const HtaTrace trace(*t.store);
  const auto streams = idle_time_by_stream(trace, breakdown_events(trace), 30);
  REQUIRE(streams.size() == 1);
  CHECK(streams[0].categories[kHostWait].idle_us == 2);
  CHECK_FALSE(streams[0].categories[kKernelWait].present);
}
