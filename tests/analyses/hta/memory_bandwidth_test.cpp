#include <catch2/catch.hpp>

#include <cmath>

#include "analyses/hta/memory_bandwidth.h"
#include "support/test_trace.h"

using namespace sollens;
using namespace sollens::hta;

namespace {

double cell(const Table& t, const char* column, size_t row) {
  const Column* c = t.find(column);
  REQUIRE(c != nullptr);
  return c->type() == ColumnType::kInt ? static_cast<double>(c->int_at(row)) : c->float_at(row);
}

// Two overlapping HtoD copies (2 and 3 GB/s), a DtoH copy of 0 µs, a memset without a
// recorded bandwidth, and a kernel (not a memory operation). Whole µs.
const char* kCopies = R"T({"traceEvents": [
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 10, "dur": 10, "args": {"correlation": 1, "stream": 7, "bytes": 20000, "memory bandwidth (GB/s)": 2.0}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 8, "ts": 15, "dur": 10, "args": {"correlation": 2, "stream": 8, "bytes": 30000, "memory bandwidth (GB/s)": 3}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7, "ts": 40, "dur": 0, "args": {"correlation": 3, "stream": 7, "memory bandwidth (GB/s)": 4.5}},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 50, "dur": 2, "args": {"correlation": 4, "stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 60, "dur": 2, "args": {"correlation": 5, "stream": 7}}
]})T";

}  // namespace

TEST_CASE("memory kind: HTA's get_memory_kernel_type", "[hta][memory_bandwidth]") {
  CHECK(memory_kernel_kind("Memcpy DtoH (Device -> Pageable)") == "Memcpy DtoH");
  CHECK(memory_kernel_kind("Memset (Device)") == "Memset");
  CHECK(memory_kernel_kind("Memcpy PtoP (Device -> Device)") == "Memcpy PtoP");
  CHECK(memory_kernel_kind("void at::native::copy_Memcpy_like()") == "Memcpy Unknown");
}

TEST_CASE("memory bandwidth: summed per kind from each start to its end", "[hta][memory_bandwidth]") {
  auto store = test::load_store(kCopies);
  const HtaTrace trace(*store);
  const std::vector<MemoryBwPoint> series = memory_bw_series(trace);
  // Kinds in name order: DtoH (0 µs read as 1 µs: 4.5 at 40, 0 at 41), HtoD (2 at 10,
  // 5 at 15, 3 at 20, 0 at 25), Memset (no bandwidth recorded: −1, read as 0).
  REQUIRE(series.size() == 8);
  CHECK(series[0].kind == "Memcpy DtoH");
  CHECK(series[0].memory_bw_gbps == 4.5);
  CHECK(series[1].ts == 41);
  CHECK(series[1].memory_bw_gbps == 0);
  std::vector<double> htod;
  for (size_t k = 2; k < 6; ++k) htod.push_back(series[k].memory_bw_gbps);
  CHECK(htod == std::vector<double>{2, 5, 3, 0});
  CHECK(series[6].kind == "Memset");
  CHECK(series[6].memory_bw_gbps == 0);

  const Table summary = memory_bw_summary_table(trace, series);
  REQUIRE(summary.num_rows() == 2);  // Memset has no point above 0
  CHECK(summary.find("name")->string_at(0) == "Memcpy DtoH");
  CHECK(cell(summary, "count", 0) == 1);
  CHECK(summary.find("std")->is_null(0));  // the std of one value: empty, as pandas writes NaN
  CHECK(summary.find("name")->string_at(1) == "Memcpy HtoD");
  // HtoD's points above 0: 2, 5, 3
  CHECK(cell(summary, "count", 1) == 3);
  CHECK(cell(summary, "mean", 1) == Approx(10.0 / 3));
  // deviations −4/3, 5/3, −1/3: squares sum 42/9, over n − 1 = 2
  CHECK(cell(summary, "std", 1) == Approx(std::sqrt(42.0 / 18)));
  CHECK(cell(summary, "min", 1) == 2);
  CHECK(cell(summary, "25%", 1) == 2.5);
  CHECK(cell(summary, "50%", 1) == 3);
  CHECK(cell(summary, "75%", 1) == 4);
  CHECK(cell(summary, "max", 1) == 5);
}

TEST_CASE("memory bandwidth: the time series sheet has one row per change", "[hta][memory_bandwidth]") {
  auto store = test::load_store(kCopies);
  const HtaTrace trace(*store);
  const Table t = memory_bw_time_series_table(trace, memory_bw_series(trace));
  CHECK(t.num_rows() == 8);
  CHECK(t.find("pid")->string_at(0) == "0");
  CHECK(t.find("name")->string_at(2) == "Memcpy HtoD");
}

#ifdef SOLLENS_HAVE_ZLIB  // a .json.gz fixture: the wasm build reads plain JSON only
TEST_CASE("memory bandwidth: HTA's reference summary of the DDP NCCL trace (last step left out)",
          "[hta][memory_bandwidth]") {
  auto store = test::load_store(test::fixture_text("traces/hta-a100-ddp-nccl/nccl_data.json.gz"));
  const HtaTrace trace(*store);
  const Table summary = memory_bw_summary_table(trace, memory_bw_series(trace));
  REQUIRE(summary.num_rows() == 2);
  // hta-reference/memory_bw_summary.csv: with the last of the three profiler steps, the
  // DtoD count would be 960.
  CHECK(summary.find("name")->string_at(0) == "Memcpy DtoD");
  CHECK(cell(summary, "count", 0) == 640);
  CHECK(cell(summary, "mean", 0) == Approx(39.2106212108676).epsilon(1e-9));
  CHECK(cell(summary, "std", 0) == Approx(108.10208182322096).epsilon(1e-9));
  CHECK(cell(summary, "25%", 0) == Approx(0.18181818181818182).epsilon(1e-9));
  CHECK(summary.find("name")->string_at(1) == "Memset");
  CHECK(cell(summary, "count", 1) == 76);
  CHECK(cell(summary, "mean", 1) == Approx(678.8910942311574).epsilon(1e-9));
  CHECK(cell(summary, "50%", 1) == Approx(679.0334203041698).epsilon(1e-9));
}
#endif
