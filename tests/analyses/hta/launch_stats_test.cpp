#include "analyses/hta/launch_stats.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "support/test_trace.h"

namespace sollens::hta {
namespace {

std::string trace_of(const std::string& events, const std::string& extra = "") {
  return R"({"schemaVersion": 1, )" + extra + R"("traceEvents": [)" + events + "]}";
}

std::string host(const std::string& cat, const std::string& name, double ts, double dur, int corr) {
  return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )" +
         std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": {"correlation": )" +
         std::to_string(corr) + "}}";
}

std::string gpu(const std::string& cat, const std::string& name, double ts, double dur, int corr) {
  return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": )" +
         std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) +
         R"(, "args": {"device": 0, "stream": 7, "correlation": )" + std::to_string(corr) + "}}";
}

std::vector<int64_t> correlations(const Table& t) { return t.column(1).ints(); }

const Table& sheet(const std::vector<Table>& tables, const std::string& name) {
  for (const Table& t : tables)
    if (t.name() == name) return t;
  FAIL("no sheet " << name);
  return tables.front();
}

// Whole µs, so no rounding. By hand (cpu_duration, gpu_duration, launch_delay =
// max(0, GPU start − call end)):
//   corr 1 cudaLaunchKernel [105, 115] → kernel at 120 for 4:   10, 4, 5
//   corr 2 cudaMemsetAsync  [200, 260] → memset at 250 for 2:   60, 2, 0 (−10 clipped)
//   corr 3 cuLaunchKernelEx [300, 308] → kernel at 450 for 3:    8, 3, 142 (not HTA's)
//   corr 4 cudaLaunchKernel with no kernel: no row
//   corr 5 cudaMemcpyAsync  [600, 620] → memcpy at 730 for 40:  20, 40, 110
//   corr 6 cudaStreamSynchronize: nothing on the GPU, no row
const std::string kLaunches = trace_of(
    host("cpu_op", "aten::add", 100, 30, 0) + "," + host("cuda_runtime", "cudaLaunchKernel", 105, 10, 1) + "," +
    gpu("kernel", "add_kernel", 120, 4, 1) + "," + host("cuda_runtime", "cudaMemsetAsync", 200, 60, 2) + "," +
    gpu("gpu_memset", "Memset (Device)", 250, 2, 2) + "," + host("cuda_driver", "cuLaunchKernelEx", 300, 8, 3) + "," +
    gpu("kernel", "triton_poi", 450, 3, 3) + "," + host("cuda_runtime", "cudaLaunchKernel", 500, 5, 4) + "," +
    host("cuda_runtime", "cudaMemcpyAsync", 600, 20, 5) + "," + gpu("gpu_memcpy", "Memcpy DtoD", 730, 40, 5) + "," +
    host("cuda_runtime", "cudaStreamSynchronize", 800, 3, 6),
    R"("distributedInfo": {"rank": 3, "world_size": 4}, )");

TEST_CASE("launch stats: HTA's launch calls joined with their GPU events, delays clipped at 0") {
  const auto store = test::load_store(kLaunches);
  const HtaTrace trace(*store);
  const Table t = cuda_kernel_launch_stats_table(trace, hta_launch_rows(trace));
  REQUIRE(t.num_rows() == 3);
  CHECK(t.column(0).name() == "rank");
  CHECK(t.column(0).int_at(0) == 3);
  CHECK(correlations(t) == std::vector<int64_t>{1, 2, 5});
  CHECK(t.find("cpu_duration")->floats() == std::vector<double>{10, 60, 20});
  CHECK(t.find("gpu_duration")->floats() == std::vector<double>{4, 2, 40});
  CHECK(t.find("launch_delay")->floats() == std::vector<double>{5, 0, 110});
  CHECK(t.find("launch_delay")->unit() == Unit::kMicroseconds);
}

TEST_CASE("launch stats: calls HTA leaves out (cuLaunchKernelEx) get a sheet of their own") {
  const auto store = test::load_store(kLaunches);
  const HtaTrace trace(*store);
  const Table t = other_api_launch_stats_table(trace, other_api_launch_rows(trace));
  REQUIRE(t.num_rows() == 1);
  CHECK(t.column(1).int_at(0) == 3);
  CHECK(t.find("cpu_duration")->float_at(0) == 8);
  CHECK(t.find("gpu_duration")->float_at(0) == 3);
  CHECK(t.find("launch_delay")->float_at(0) == 142);
  CHECK(t.find("launch_api")->string_at(0) == "cuLaunchKernelEx");
}

TEST_CASE("launch stats: HTA's outliers over all launches, with the option cutoffs") {
  const auto store = test::load_store(kLaunches);
  const HtaTrace trace(*store);
  const std::vector<Table> tables = launch_stats_tables(trace, HtaOptions{});
  // short: call ≤ 50 µs and GPU shorter than the call: corr 1 (4 < 10), corr 3 (3 < 8).
  CHECK(correlations(sheet(tables, "cuda_kernel_launch_short_kernels")) == std::vector<int64_t>{1, 3});
  // runtime outliers: call > 50 µs: corr 2 (60).
  CHECK(correlations(sheet(tables, "cuda_kernel_launch_runtime_outliers")) == std::vector<int64_t>{2});
  // delay outliers: delay > 100 µs: corr 5 (110), corr 3 (142).
  CHECK(correlations(sheet(tables, "cuda_kernel_launch_delay_outliers")) == std::vector<int64_t>{5, 3});
  HtaOptions tight;
  tight.launch_delay_cutoff_us = 120;
  tight.runtime_cutoff_us = 9;
  const std::vector<Table> cut = launch_stats_tables(trace, tight);
  CHECK(correlations(sheet(cut, "cuda_kernel_launch_delay_outliers")) == std::vector<int64_t>{3});
  CHECK(correlations(sheet(cut, "cuda_kernel_launch_runtime_outliers")) == std::vector<int64_t>{1, 2, 5});
  CHECK(correlations(sheet(cut, "cuda_kernel_launch_short_kernels")) == std::vector<int64_t>{3});
}

TEST_CASE("launch stats: HTA's rounding of ns-resolution traces (start up, end down)") {
  // Call [10.4, 15.7] → [11, 15], 4 µs; kernel [15.2, 17.2] → [16, 17], 1 µs; delay 16 − 15 = 1.
  const auto store = test::load_store(
      trace_of(host("cuda_runtime", "cudaLaunchKernel", 10.4, 5.3, 9) + "," + gpu("kernel", "k", 15.2, 2.0, 9)));
  const HtaTrace trace(*store);
  const Table t = cuda_kernel_launch_stats_table(trace, hta_launch_rows(trace));
  REQUIRE(t.num_rows() == 1);
  CHECK(t.column(0).int_at(0) == 0);  // no distributedInfo: rank 0
  CHECK(t.find("cpu_duration")->float_at(0) == 4);
  CHECK(t.find("gpu_duration")->float_at(0) == 1);
  CHECK(t.find("launch_delay")->float_at(0) == 1);
}

TEST_CASE("launch stats: with two profiler steps or more, HTA drops the last step's launches") {
  // ProfilerStep#1 [0, 100), ProfilerStep#2 from 100: the launch at 150 is HTA's "incomplete
  // last iteration" and goes; the one at 10 stays.
  const std::string events =
      host("user_annotation", "ProfilerStep#1", 0, 100, 0) + "," + host("user_annotation", "ProfilerStep#2", 100, 100, 0) +
      "," + host("cuda_runtime", "cudaLaunchKernel", 10, 5, 1) + "," + gpu("kernel", "k", 20, 3, 1) + "," +
      host("cuda_runtime", "cudaLaunchKernel", 150, 5, 2) + "," + gpu("kernel", "k", 160, 3, 2);
  const auto store = test::load_store(trace_of(events));
  const HtaTrace trace(*store);
  CHECK(correlations(cuda_kernel_launch_stats_table(trace, hta_launch_rows(trace))) == std::vector<int64_t>{1});
}

TEST_CASE("launch stats: ROCm's hipLaunchKernel is not HTA's; it lands in the other APIs' sheet") {
  // HTA's reference for hta-mi250-minitoy is empty: its names are CUDA's only.
  const auto store = test::load_store(trace_of(host("cuda_runtime", "hipLaunchKernel", 10, 5, 1) + "," +
                                               gpu("kernel", "k", 30, 3, 1)));
  const HtaTrace trace(*store);
  CHECK(hta_launch_rows(trace).empty());
  const Table other = other_api_launch_stats_table(trace, other_api_launch_rows(trace));
  REQUIRE(other.num_rows() == 1);
  CHECK(other.find("launch_delay")->float_at(0) == 15);  // 30 − (10 + 5)
  CHECK(other.find("launch_api")->string_at(0) == "hipLaunchKernel");
}

TEST_CASE("launch stats: a ROCm trace's launches (stream \"0x0\" on the call, kernels on stream 0) are kept") {
  // Two profiler steps, so HTA's loader cuts at ProfilerStep#2 (100): the call at 10 stays,
  // though HTA itself would drop it (its stream arg is not −1) and its kernel (stream 0).
  const std::string events =
      host("user_annotation", "ProfilerStep#1", 0, 100, 0) + "," + host("user_annotation", "ProfilerStep#2", 100, 50, 0) +
      "," + R"({"ph": "X", "cat": "cuda_runtime", "name": "hipExtModuleLaunchKernel", "pid": 1, "tid": 1, "ts": 10, )" +
      R"("dur": 5, "args": {"correlation": 1, "stream": "0x0"}},)" +
      R"({"ph": "X", "cat": "kernel", "name": "Cijk", "pid": 2, "tid": 0, "ts": 40, "dur": 7, )" +
      R"("args": {"device": 2, "stream": 0, "correlation": 1}})";
  const auto store = test::load_store(trace_of(events));
  const HtaTrace trace(*store);
  CHECK(trace.drops_last_step());
  CHECK(trace.last_step_start() == 100);
  const Table other = other_api_launch_stats_table(trace, other_api_launch_rows(trace));
  REQUIRE(other.num_rows() == 1);
  CHECK(other.find("gpu_duration")->float_at(0) == 7);
  CHECK(other.find("launch_delay")->float_at(0) == 25);  // 40 − (10 + 5)
}

}  // namespace
}  // namespace sollens::hta
