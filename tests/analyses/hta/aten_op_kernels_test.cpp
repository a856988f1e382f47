#include "analyses/hta/aten_op_kernels.h"

#include <catch2/catch.hpp>

#include <string>

#include "support/test_trace.h"

namespace sollens::hta {
namespace {

std::string event(const std::string& cat, const std::string& name, int tid, double ts, double dur, int corr) {
  std::string args = corr > 0 ? R"({"correlation": )" + std::to_string(corr) + "}" : "{}";
  return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": 1, "tid": )" + std::to_string(tid) +
         R"(, "ts": )" + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": )" + args + "}";
}

std::string op(const std::string& name, int tid, double ts, double dur) { return event("cpu_op", name, tid, ts, dur, 0); }
std::string launch(int tid, double ts, double dur, int corr) {
  return event("cuda_runtime", "cudaLaunchKernel", tid, ts, dur, corr);
}
std::string kernel(const std::string& name, double ts, int corr) {
  return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": )" + std::to_string(ts) +
         R"(, "dur": 2, "args": {"device": 0, "stream": 7, "correlation": )" + std::to_string(corr) + "}}";
}

std::string trace_of(const std::string& events) { return R"({"schemaVersion": 1, "traceEvents": [)" + events + "]}"; }

// Whole µs. Instances (thread, op, start) → sequence, first launch's delays
// (launch − op start, kernel − launch):
//   tid 3 aten::mm at 0, 20, 40: launches at 1, 21, 42, kernels at 3, 23, 43
//        → "mm_k" ×3, op delays 1, 1, 2 (mean 1.333), runtime delays 2, 2, 1 (1.667)
//   tid 1 aten::addmm at 10: launches 20 (gemm at 40), 30 (bias at 55) → "gemm -> bias", 10, 20
//   tid 1 aten::linear at 0 (addmm ended at 60): launch 70 → relu at 80 → "relu", 70, 10
//   tid 1 aten::addmm at 200: 205 → gemm 215, 220 → bias 230 → "gemm -> bias", 5, 10
//   tid 1 aten::addmm at 300: 310 → gemm 313; the memset call is no kernel launch → "gemm", 10, 3
//   tid 1 launch at 400 under no aten op, aten::mul's launch without a kernel: nothing
//   tid 2 aten::copy_ at 15 (overlapping tid 1's addmm in time, never enclosing its
//        launches): 50 → copy_k at 60 → "copy_k", 35, 10
const std::string kTrace = trace_of(
    op("aten::mm", 3, 0, 10) + "," + launch(3, 1, 1, 11) + "," + kernel("mm_k", 3, 11) + "," + op("aten::mm", 3, 20, 10) +
    "," + launch(3, 21, 1, 12) + "," + kernel("mm_k", 23, 12) + "," + op("aten::mm", 3, 40, 10) + "," +
    launch(3, 42, 1, 13) + "," + kernel("mm_k", 43, 13) + "," + op("aten::linear", 1, 0, 100) + "," +
    op("aten::addmm", 1, 10, 50) + "," + launch(1, 20, 5, 1) + "," + kernel("gemm", 40, 1) + "," + launch(1, 30, 5, 2) +
    "," + kernel("bias", 55, 2) + "," + launch(1, 70, 5, 3) + "," + kernel("relu", 80, 3) + "," +
    op("aten::addmm", 1, 200, 40) + "," + launch(1, 205, 5, 4) + "," + kernel("gemm", 215, 4) + "," +
    launch(1, 220, 2, 5) + "," + kernel("bias", 230, 5) + "," + op("aten::addmm", 1, 300, 40) + "," +
    launch(1, 310, 2, 6) + "," + kernel("gemm", 313, 6) + "," +
    event("cuda_runtime", "cudaMemsetAsync", 1, 320, 2, 7) + "," +
    R"J({"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 325, "dur": 1, "args": {"stream": 7, "correlation": 7}},)J" +
    launch(1, 400, 5, 8) + "," + kernel("lonely", 410, 8) + "," + op("aten::mul", 1, 500, 20) + "," +
    launch(1, 505, 2, 9) + "," + op("aten::copy_", 2, 15, 75) + "," + launch(2, 50, 2, 10) + "," +
    kernel("copy_k", 60, 10));

TEST_CASE("aten op kernels: each op instance's kernel sequence and first-launch delays, most frequent first") {
  const auto store = test::load_store(kTrace);
  const HtaTrace trace(*store);
  const Table t = aten_op_kernels_and_delay_table(trace);
  REQUIRE(t.num_rows() == 5);
  const Column& name = *t.find("aten_op_name");
  const Column& sequence = *t.find("kernel_sequence");
  const Column& count = *t.find("occurrence_count");
  const Column& op_delay = *t.find("avg_aten_op_launch_delay");
  const Column& runtime_delay = *t.find("avg_runtime_delay");
  CHECK(t.column(0).name() == "rank");
  // count 3, then 2, then the single ones by op name and sequence.
  CHECK(name.string_at(0) == "aten::mm");
  CHECK(sequence.string_at(0) == "mm_k");
  CHECK(count.int_at(0) == 3);
  CHECK(op_delay.float_at(0) == 1.333);
  CHECK(runtime_delay.float_at(0) == 1.667);
  CHECK(name.string_at(1) == "aten::addmm");
  CHECK(sequence.string_at(1) == "gemm -> bias");
  CHECK(count.int_at(1) == 2);
  CHECK(op_delay.float_at(1) == 7.5);         // (10 + 5) / 2
  CHECK(runtime_delay.float_at(1) == 15);     // (20 + 10) / 2
  CHECK(sequence.string_at(2) == "gemm");     // aten::addmm at 300
  CHECK(op_delay.float_at(2) == 10);
  CHECK(runtime_delay.float_at(2) == 3);
  CHECK(name.string_at(3) == "aten::copy_");  // its own thread's op, not tid 1's addmm
  CHECK(op_delay.float_at(3) == 35);
  CHECK(name.string_at(4) == "aten::linear");
  CHECK(sequence.string_at(4) == "relu");
  CHECK(op_delay.float_at(4) == 70);
  CHECK(runtime_delay.float_at(4) == 10);
}

TEST_CASE("aten op kernels: nesting follows HTA's order of a start and an end at the same time") {
  // aten::a [0, 10] then aten::b [10, 20]: b follows a (both last), so b's launch at 10 is b's.
  // aten::z [30, 30] lasts 0 µs and starts where aten::y [20, 30] ends: HTA nests it in y.
  const std::string events = op("aten::a", 1, 0, 10) + "," + op("aten::b", 1, 10, 10) + "," + launch(1, 10, 0, 1) +
                             "," + kernel("k1", 12, 1) + "," + op("aten::y", 1, 20, 10) + "," + op("aten::z", 1, 30, 0);
  const auto store = test::load_store(trace_of(events));
  const HtaTrace trace(*store);
  const HostNesting nesting = host_nesting(trace, std::vector<uint8_t>(store->size(), 1));
  CHECK(nesting.parent[1] == -1);  // b is not a's child
  CHECK(nesting.parent[2] == 1);   // the launch is b's
  CHECK(nesting.parent[5] == 4);   // z inside y
  const Table t = aten_op_kernels_and_delay_table(trace);
  REQUIRE(t.num_rows() == 1);
  CHECK(t.find("aten_op_name")->string_at(0) == "aten::b");
}

#ifdef SOLLENS_HAVE_ZLIB  // a .json.gz fixture: the wasm build reads plain JSON only
TEST_CASE("aten op kernels: the MI250 trace HTA fails on (KeyError: 'thread_id')") {
  // HTA counts only CUDA's launch names as kernel launches, so none of this ROCm trace's
  // hipLaunchKernel / hipExtModuleLaunchKernel calls is one; with no launch found, the
  // frame it groups by thread_id has no columns at all and pandas raises KeyError. (Its
  // calls also carry stream "0x0" and its kernels run on stream 0, which HTA's GPU filter,
  // stream > 0, leaves out.) sollens counts every *LaunchKernel* call. By hand, from the
  // trace (ns timestamps: starts rounded up, as HTA reads them):
  //   aten::add_ at 605365.756 → 605366, hipLaunchKernel 605382.766 → 605383, kernel
  //     611931.370 → 611932: delays 17 and 6549; aten::add_ at 612075.762 → 612076,
  //     launch 612081.970 → 612082, kernel 612092.491 → 612093: 6 and 11; means 11.5, 3280.
  //   aten::addmm at 603688.628 → 603689: hipLaunchKernel 603752.847 → 603753 (the copy
  //     kernel at 603771.648 → 603772), then hipExtModuleLaunchKernel (the Cijk GEMM):
  //     delays 64 and 19, one instance.
  // (Timestamps above are less the common 4203669000000 µs.)
  const auto store =
      test::load_store(test::fixture_text("traces/hta-mi250-minitoy/mi250_minitoy_train_ROCm6_2_kineto.json.gz"));
  const HtaTrace trace(*store);
  const Table t = aten_op_kernels_and_delay_table(trace);
  REQUIRE(t.num_rows() == 11);
  const Column& name = *t.find("aten_op_name");
  size_t add_row = t.num_rows(), addmm_row = t.num_rows();
  for (size_t r = 0; r < t.num_rows(); ++r) {
    if (name.string_at(r) == "aten::add_") add_row = r;
    if (name.string_at(r) == "aten::addmm") addmm_row = r;
  }
  REQUIRE(add_row == 0);  // the only op seen twice
  CHECK(t.find("occurrence_count")->int_at(add_row) == 2);
  CHECK(t.find("avg_aten_op_launch_delay")->float_at(add_row) == 11.5);
  CHECK(t.find("avg_runtime_delay")->float_at(add_row) == 3280);
  REQUIRE(addmm_row < t.num_rows());
  const std::string& sequence = t.find("kernel_sequence")->string_at(addmm_row);
  CHECK(sequence.starts_with("void at::native::elementwise_kernel<128, 2, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda"));
  CHECK(sequence.find(" -> Cijk_Alik_Bljk_SB_Bias") != std::string::npos);
  CHECK(t.find("avg_aten_op_launch_delay")->float_at(addmm_row) == 64);
  CHECK(t.find("avg_runtime_delay")->float_at(addmm_row) == 19);
}
#endif

}  // namespace
}  // namespace sollens::hta
