#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "analyses/hta/counter_series.h"
#include "analyses/hta/queue_length.h"
#include "support/test_trace.h"

using namespace sollens;
using namespace sollens::hta;

namespace {

// Two launches and their kernels on stream 7 (whole µs: HTA reads the times as they are),
// a synchronize call (not a launch) and a kernel without a launch call.
const char* kTwoLaunches = R"T({"traceEvents": [
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 3, "args": {"correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 12, "dur": 3, "args": {"correlation": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamSynchronize", "pid": 1, "tid": 1, "ts": 14, "dur": 30, "args": {"correlation": 3}},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 20, "dur": 5, "args": {"correlation": 1, "stream": 7}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 30, "dur": 5, "args": {"correlation": 2, "stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "orphan", "pid": 0, "tid": 7, "ts": 40, "dur": 5, "args": {"correlation": 9, "stream": 7}}
]})T";

std::vector<double> lengths(const std::vector<QueueLengthPoint>& series) {
  std::vector<double> v;
  for (const auto& p : series) v.push_back(static_cast<double>(p.queue_length));
  return v;
}

double cell(const Table& t, const char* column, size_t row) {
  const Column* c = t.find(column);
  REQUIRE(c != nullptr);
  return c->type() == ColumnType::kInt ? static_cast<double>(c->int_at(row)) : c->float_at(row);
}

}  // namespace

TEST_CASE("queue length: +1 at each launch with a GPU event, -1 at its start", "[hta][queue_length]") {
  auto store = test::load_store(kTwoLaunches);
  const HtaTrace trace(*store);
  const std::vector<QueueLengthPoint> series = queue_length_series(trace);
  // ts 10: 1, ts 12: 2, ts 20: 1, ts 30: 0; the synchronize call and the orphan kernel do not count.
  CHECK(lengths(series) == std::vector<double>{1, 2, 1, 0});
  CHECK(series[1].ts == 12);
  CHECK(series[3].stream == 7);

  const Table summary = queue_length_summary_table(trace, series);
  REQUIRE(summary.num_rows() == 1);
  CHECK(cell(summary, "stream", 0) == 7);
  CHECK(cell(summary, "count", 0) == 4);
  CHECK(cell(summary, "mean", 0) == 1);
  // squares of deviations 0 + 1 + 0 + 1, over n - 1 = 3
  CHECK(cell(summary, "std", 0) == Approx(std::sqrt(2.0 / 3)));
  // sorted 0 1 1 2: 25% at position 0.75, 75% at 2.25
  CHECK(cell(summary, "25%", 0) == 0.75);
  CHECK(cell(summary, "50%", 0) == 1);
  CHECK(cell(summary, "75%", 0) == 1.25);
  CHECK(cell(summary, "max", 0) == 2);
}

TEST_CASE("queue length: time blocked at the maximum length", "[hta][queue_length]") {
  auto store = test::load_store(kTwoLaunches);
  const HtaTrace trace(*store);
  HtaOptions options;
  options.max_queue_length = 2;
  const Table blocked = time_blocked_on_full_queue_table(trace, queue_length_series(trace), options);
  REQUIRE(blocked.num_rows() == 1);
  // length 2 from ts 12 until the next change at ts 20; the trace's starts span 10 .. 40
  CHECK(cell(blocked, "duration_at_max_queue_length", 0) == 8);
  CHECK(cell(blocked, "relative_duration_at_max_queue_length", 0) == Approx(8.0 / 30));
  options.max_queue_length = 1024;
  CHECK(time_blocked_on_full_queue_table(trace, queue_length_series(trace), options).num_rows() == 0);
}

TEST_CASE("queue length: with two or more profiler steps, the last step is left out as HTA does",
          "[hta][queue_length]") {
  auto store = test::load_store(R"T({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 50},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 50, "dur": 50},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 3, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 60, "dur": 3, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 20, "dur": 5, "args": {"correlation": 1, "stream": 7}},
    {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 70, "dur": 5, "args": {"correlation": 2, "stream": 7}}
  ]})T");
  const HtaTrace trace(*store);
  CHECK(lengths(queue_length_series(trace)) == std::vector<double>{1, 0});
}

TEST_CASE("numpy quicksort order: sorts, and keeps numpy's order of equal keys", "[hta][queue_length]") {
  std::mt19937 random(7);
  for (size_t n : {0, 1, 2, 15, 16, 17, 100, 5000}) {
    std::vector<double> keys(n);
    for (double& k : keys) k = static_cast<double>(random() % 20);  // many ties, heapsort fallback too
    const std::vector<uint32_t> order = numpy_quicksort_order(keys);
    REQUIRE(order.size() == n);
    for (size_t k = 1; k < n; ++k) CHECK(keys[order[k - 1]] <= keys[order[k]]);
  }
  // 17 elements take one partition step (followed by hand): the median of keys[0], keys[8]
  // and keys[16] moves 16 to the front and the 1s at 0 and 8 to positions 8 and 15, the
  // pivot returns to position 1, and insertion sort brings 8 forward to position 2.
  std::vector<double> keys = {1, 5, 5, 5, 5, 5, 5, 5, 1, 5, 5, 5, 5, 5, 5, 5, 0};
  const std::vector<uint32_t> order = numpy_quicksort_order(keys);
  CHECK(order[0] == 16);
  CHECK(order[1] == 0);
  CHECK(order[2] == 8);
}

#ifdef SOLLENS_HAVE_ZLIB  // a .json.gz fixture: the wasm build reads plain JSON only
TEST_CASE("queue length: HTA's reference summary of the GPT-2 H200 trace", "[hta][queue_length]") {
  auto store = test::load_store(test::fixture_text("traces/h200-pt211-gpt2-train/gpt2_train.json.gz"));
  const HtaTrace trace(*store);
  const Table summary = queue_length_summary_table(trace, queue_length_series(trace));
  REQUIRE(summary.num_rows() == 1);
  // hta-reference/queue_length_summary.csv. Its equal timestamps (rounded to µs) are
  // ordered as numpy's unstable sort leaves them: launches first at every tie would give
  // mean 3.13699, GPU starts first 3.11325.
  CHECK(cell(summary, "stream", 0) == 7);
  CHECK(cell(summary, "count", 0) == 4044);
  CHECK(cell(summary, "mean", 0) == Approx(3.126607319485658).epsilon(1e-9));
  CHECK(cell(summary, "std", 0) == Approx(8.814424704552119).epsilon(1e-9));
  CHECK(cell(summary, "max", 0) == 61);
}
#endif

#ifdef SOLLENS_HAVE_ZLIB  // a .json.gz fixture: the wasm build reads plain JSON only
TEST_CASE("queue length: HTA's reference summary of a DLRM rank whose sort falls back to heapsort",
          "[hta][queue_length]") {
  auto store = test::load_store(
      test::fixture_text("traces/param-dlrm-v100-8rank/worker7_step_12.1694128201553.pt.trace.json.gz"));
  const HtaTrace trace(*store);
  const Table summary = queue_length_summary_table(trace, queue_length_series(trace));
  REQUIRE(summary.num_rows() >= 1);
  // hta-reference/queue_length_summary.csv, rank 7 stream 7 (numpy switches to heapsort
  // past its depth limit here; a stable sort of those ranges instead gives mean 1.49558).
  CHECK(cell(summary, "rank", 0) == 7);
  CHECK(cell(summary, "stream", 0) == 7);
  CHECK(cell(summary, "count", 0) == 452);
  CHECK(cell(summary, "mean", 0) == Approx(1.491150442477876).epsilon(1e-9));
  CHECK(cell(summary, "std", 0) == Approx(3.373617677586345).epsilon(1e-9));
}
#endif

TEST_CASE("counter sheets: the time series only with HtaOptions::time_series", "[hta][queue_length]") {
  auto t = test::load_with_tree(kTwoLaunches);
  const HtaTrace trace(*t.store);
  auto names = [&](const HtaOptions& options) {
    std::vector<std::string> v;
    for (const Table& table : counter_tables(trace, t.tree, options)) v.push_back(table.name());
    return v;
  };
  HtaOptions options;
  CHECK(names(options) == std::vector<std::string>{"queue_length_summary", "time_blocked_on_full_queue",
                                                   "memory_bw_summary", "cupti_counters"});
  options.time_series = true;
  CHECK(names(options) == std::vector<std::string>{"queue_length_summary", "queue_length_time_series",
                                                   "time_blocked_on_full_queue", "memory_bw_summary",
                                                   "memory_bw_time_series", "cupti_counters"});
  const Table series = queue_length_time_series_table(trace, queue_length_series(trace));
  REQUIRE(series.num_rows() == 4);
  CHECK(series.find("pid")->string_at(0) == "0");  // the GPU event's, not the launch's
  CHECK(series.find("tid")->string_at(0) == "7");
  CHECK(series.find("queue_length")->int_at(1) == 2);
}
