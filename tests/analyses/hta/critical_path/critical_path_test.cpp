// The critical path: HTA's graph and longest path on hand-made traces whose answer is
// worked out below, the inferred GPU → CPU waits, the annotation window, and HTA's own
// summaries of three fixture traces.
#include <catch2/catch.hpp>

#include <string>

#include "analyses/hta/critical_path/cp_names.h"
#include "analyses/hta/critical_path/critical_path.h"
#include "analyses/hta/critical_path/critical_path_sheets.h"
#include "support/table_column.h"
#include "support/test_trace.h"

using namespace sollens;
using namespace sollens::hta;
using sollens::test::col;

namespace {

std::string cpu(const char* cat, const char* name, int ts, int dur, int correlation = -1) {
  std::string args = correlation >= 0 ? R"({"correlation": )" + std::to_string(correlation) + "}" : "{}";
  return std::string(R"({"ph": "X", "cat": ")") + cat + R"(", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )" +
         std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": )" + args + "}";
}

std::string kernel(const char* name, int ts, int dur, int correlation) {
  return std::string(R"({"ph": "X", "cat": "kernel", "name": ")") + name + R"(", "pid": 0, "tid": 7, "ts": )" +
         std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) +
         R"(, "args": {"device": 0, "stream": 7, "correlation": )" + std::to_string(correlation) + "}}";
}

// One CPU thread launches three kernels, waits in cudaDeviceSynchronize, then runs an op:
//   cudaLaunchKernel [0, 4] [10, 14] [20, 24]; cudaDeviceSynchronize [30, 107];
//   aten::after [107, 307]; kernels k1 [6, 46], k2 [46, 76], k3 [76, 106] on stream 7.
// k1 starts on an empty queue (launch edge, 6 µs); k2 and k3 queue behind (kernel-kernel
// edges of 0 µs). No CUDA sync events.
std::string launch_then_sync() {
  return "{\"traceEvents\": [" + cpu("cuda_runtime", "cudaLaunchKernel", 0, 4, 1) + "," +
         cpu("cuda_runtime", "cudaLaunchKernel", 10, 4, 2) + "," + cpu("cuda_runtime", "cudaLaunchKernel", 20, 4, 3) +
         "," + cpu("cuda_runtime", "cudaDeviceSynchronize", 30, 77, 4) + "," + cpu("cpu_op", "aten::after", 107, 200) +
         "," + kernel("k1", 6, 40, 1) + "," + kernel("k2", 46, 30, 2) + "," + kernel("k3", 76, 30, 3) + "]}";
}

double share(const Table& summary, std::string_view bound_by) {
  for (size_t r = 0; r < summary.num_rows(); ++r)
    if (col(summary, "bound_by").string_at(r) == bound_by) return col(summary, "duration").float_at(r);
  FAIL("no class '" << bound_by << "'");
  return 0;
}

double total(const CriticalPath& p) {
  double sum = 0;
  for (const CriticalPathStep& s : p.steps) sum += s.duration;
  return sum;
}

}  // namespace

TEST_CASE("critical path: without sync events HTA's path stays on the CPU", "[hta][critical_path]") {
  const auto store = test::load_store(launch_then_sync());
  const HtaTrace trace(*store);
  const CriticalPath p = critical_path(trace, HtaOptions{}, false);
  // No ProfilerStep: the whole trace. CPU: 3 launches of 4 µs, the sync call weighed 0
  // (HTA's blocking calls), aten::after 200 µs: 212 µs, longer than the GPU chain's
  // 6 + 40 + 30 + 30 = 106 µs.
  CHECK(p.annotation.empty());
  CHECK(total(p) == 212);
  const Table s = critical_path_summary_table(p, "critical_path_summary");
  REQUIRE(s.num_rows() == 2);
  CHECK(col(s, "bound_by").string_at(0) == "");
  CHECK(share(s, "cpu_bound") == 100);
}

TEST_CASE("critical path: the inferred wait runs the path through the kernels", "[hta][critical_path]") {
  const auto store = test::load_store(launch_then_sync());
  const HtaTrace trace(*store);
  const CriticalPath p = critical_path(trace, HtaOptions{}, true);
  // cudaDeviceSynchronize [30, 107] waited for k3 (the last kernel launched before it, ending
  // at 106 inside the call): an edge k3 end → sync end. Path: launch 6, k1 40, 0, k2 30, 0,
  // k3 30, sync 0, dependency 0, aten::after 200 = 306 µs.
  CHECK(p.inferred_waits == 1);
  CHECK(total(p) == 306);
  const Table s = critical_path_summary_table(p, "critical_path_inferred_summary");
  CHECK(share(s, "gpu_compute_bound") == Approx(100.0 / 306 * 100).epsilon(1e-12));
  CHECK(share(s, "cpu_bound") == Approx(200.0 / 306 * 100).epsilon(1e-12));
  CHECK(share(s, "gpu_kernel_launch_overhead") == Approx(6.0 / 306 * 100).epsilon(1e-12));
  CHECK(share(s, "gpu_kernel_kernel_overhead") == 0);
  bool inferred_step = false;
  for (const CriticalPathStep& step : p.steps)
    if (step.inferred) {
      inferred_step = true;
      CHECK(step.type == CpEdgeType::kSyncDependency);
      CHECK(store->name_of(step.from_event) == "k3");
      CHECK(store->name_of(step.to_event) == "cudaDeviceSynchronize");
    }
  CHECK(inferred_step);
}

TEST_CASE("critical path: a sync call that ends before the GPU finishes waited for nothing", "[hta][critical_path]") {
  // cudaDeviceSynchronize [30, 40] returns while k1 [6, 46] still runs: no GPU event ends
  // inside the call, so no edge, and the call keeps its 10 µs of CPU time.
  const std::string json = "{\"traceEvents\": [" + cpu("cuda_runtime", "cudaLaunchKernel", 0, 4, 1) + "," +
                           cpu("cuda_runtime", "cudaDeviceSynchronize", 30, 10, 4) + "," + kernel("k1", 6, 40, 1) +
                           "]}";
  const auto store = test::load_store(json);
  const HtaTrace trace(*store);
  const CriticalPath p = critical_path(trace, HtaOptions{}, true);
  CHECK(p.inferred_waits == 0);
  // CPU 4 + 10 = 14 µs; GPU launch 6 + k1 40 = 46 µs: the kernel.
  CHECK(total(p) == 46);
}

TEST_CASE("critical path: the second of the steps HTA keeps, its events only", "[hta][critical_path]") {
  // Three steps; HTA drops the last one's events, so two remain and the default instance
  // is the second: ProfilerStep#2 with op2 (30 µs) inside.
  const std::string json =
      "{\"traceEvents\": [" + cpu("user_annotation", "ProfilerStep#1", 0, 100) + "," +
      cpu("cpu_op", "op1", 10, 50) + "," + cpu("user_annotation", "ProfilerStep#2", 100, 100) + "," +
      cpu("cpu_op", "op2", 110, 30) + "," + cpu("user_annotation", "ProfilerStep#3", 200, 100) + "," +
      cpu("cpu_op", "op3", 210, 70) + "]}";
  const auto store = test::load_store(json);
  const HtaTrace trace(*store);
  const CriticalPath p = critical_path(trace, HtaOptions{}, false);
  CHECK(p.annotation == "ProfilerStep");
  CHECK(p.instance == 1);
  CHECK(p.window_start == 100);
  CHECK(p.window_end == 200);
  const Table b = critical_path_breakdown_table(trace, p, "critical_path_breakdown");
  REQUIRE(b.num_rows() == 1);
  CHECK(col(b, "s_name").string_at(0) == "op2");
  CHECK(col(b, "duration").float_at(0) == 30);
  CHECK(col(b, "bound_by").string_at(0) == "cpu_bound");
  CHECK(col(b, "stream").int_at(0) == -1);
}

TEST_CASE("critical path: HTA's shortened kernel names", "[hta][critical_path]") {
  // As the reference breakdowns show them.
  CHECK(cp::shorten_name("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                         "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
                         "at::detail::Array<char*, 1>)") == "at::native::vectorized_elementwise_kernel");
  CHECK(cp::shorten_name("void at::native::(anonymous namespace)::CatArrayBatchedCopy<int, 4>(int*)") ==
        "at::native::::CatArrayBatchedCopy");
  CHECK(cp::shorten_name("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n") == "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n");
}

#ifdef SOLLENS_HAVE_ZLIB  // .json.gz fixtures: the wasm build reads plain JSON only
namespace {

Table fixture_summary(const std::string& path) {
  const auto store = test::load_store(test::fixture_text(path));
  const HtaTrace trace(*store);
  return critical_path_summary_table(critical_path(trace, HtaOptions{}, false), "critical_path_summary");
}

}  // namespace

// The numbers are HTA's, from its reference critical_path_summary.csv of each trace.
TEST_CASE("critical path: HTA's summary of the Qwen H100 trace (ProfilerStep 0)", "[hta][critical_path][fixture]") {
  const Table s = fixture_summary("traces/tracelens-h100-qwen1.5-0.5b/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
  REQUIRE(s.num_rows() == 5);
  CHECK(share(s, "") == 0);
  CHECK(share(s, "cpu_bound") == Approx(5.014275517487509).epsilon(1e-9));
  CHECK(share(s, "gpu_compute_bound") == Approx(86.69700214132763).epsilon(1e-9));
  CHECK(share(s, "gpu_kernel_kernel_overhead") == Approx(8.270877944325482).epsilon(1e-9));
  CHECK(share(s, "gpu_kernel_launch_overhead") == Approx(0.017844396859386154).epsilon(1e-9));
}
#endif

#ifdef SOLLENS_HAVE_ZLIB  // a .json.gz fixture: the wasm build reads plain JSON only
TEST_CASE("critical path: HTA's summary of DLRM rank 0 (ProfilerStep 0)", "[hta][critical_path][fixture]") {
  const Table s =
      fixture_summary("traces/param-dlrm-v100-8rank/worker0_step_12.1694128201545.pt.trace.json.gz");
  REQUIRE(s.num_rows() == 4);
  CHECK(share(s, "cpu_bound") == Approx(99.82325216025137).epsilon(1e-9));
  CHECK(share(s, "gpu_compute_bound") == Approx(0.0589159465828751).epsilon(1e-9));
  CHECK(share(s, "gpu_kernel_launch_overhead") == Approx(0.1178318931657502).epsilon(1e-9));
}
#endif

#ifdef SOLLENS_HAVE_ZLIB  // a .json.gz fixture: the wasm build reads plain JSON only
TEST_CASE("critical path: HTA's summary of ResNet-50 on H200 (whole trace)", "[hta][critical_path][fixture]") {
  const Table s = fixture_summary("traces/h200-pt211-resnet50-train/resnet50_train.json.gz");
  REQUIRE(s.num_rows() == 5);
  CHECK(share(s, "cpu_bound") == Approx(99.01337152922964).epsilon(1e-9));
  CHECK(share(s, "gpu_compute_bound") == Approx(0.9546008558490431).epsilon(1e-9));
  CHECK(share(s, "gpu_kernel_kernel_overhead") == Approx(0.023131055220946058).epsilon(1e-9));
  CHECK(share(s, "gpu_kernel_launch_overhead") == Approx(0.00889655970036387).epsilon(1e-9));
}
#endif

TEST_CASE("critical path: ROCm's stream 0 kernels count in the inferred path only", "[hta][critical_path]") {
  // hipLaunchKernel [0, 4] (its stream arg the text "0x0") launches k1 [6, 46] on stream 0;
  // hipDeviceSynchronize [10, 47] waits for it; aten::after [47, 97]. HTA pairs only GPU
  // events on streams above 0 and weighs only CUDA's blocking calls 0: its path is the
  // CPU's, 4 + 37 + 50 = 91 µs. Inferred: launch 6 + k1 40 + sync 0 + aten::after 50 = 96 µs.
  // (A metadata event first: HTA reads a partner at row 0 as "no partner".)
  const std::string launch =
      R"({"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel", "pid": 1, "tid": 1, "ts": 0, "dur": 4, )"
      R"("args": {"correlation": 1, "stream": "0x0", "grid": [1, 1, 1]}})";
  const std::string k1 =
      R"({"ph": "X", "cat": "kernel", "name": "k1", "pid": 2, "tid": 0, "ts": 6, "dur": 40, )"
      R"("args": {"device": 2, "stream": 0, "correlation": 1}})";
  const std::string json = "{\"traceEvents\": [{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1}," + launch + "," +
                           cpu("cuda_runtime", "hipDeviceSynchronize", 10, 37, 2) + "," +
                           cpu("cpu_op", "aten::after", 47, 50) + "," + k1 + "]}";
  const auto store = test::load_store(json);
  const HtaTrace trace(*store);
  const CriticalPath hta_path = critical_path(trace, HtaOptions{}, false);
  CHECK(total(hta_path) == 91);
  const CriticalPath inferred = critical_path(trace, HtaOptions{}, true);
  CHECK(inferred.inferred_waits == 1);
  CHECK(total(inferred) == 96);
  const Table s = critical_path_summary_table(inferred, "critical_path_inferred_summary");
  CHECK(share(s, "gpu_compute_bound") == Approx(40.0 / 96 * 100).epsilon(1e-12));
}

namespace {

// A kernel gap HTA leaves without an edge. cudaLaunchKernel [0, 4] launches k1 [10, 20] on
// an empty stream 7 (a launch edge of 10 µs); cudaMalloc [5, 5 + m] holds the CPU; two
// launches [6 + m, 10 + m] and [11 + m, 15 + m] queue k2 [16 + m, 26 + m] and
// k3 [26 + m, 36 + m] (k2 starts with k3 queued: no launch edge, a kernel-kernel gap of
// m − 4 µs from k1's end); cudaDeviceSynchronize [40 + m, 60 + m] with its Context Sync
// (stream 0xFFFFFFFF, as CUDA writes it) ending at 60 + m ties k3's end to the call's end;
// aten::after [60 + m, 100 + m].
//   CPU:  4 + m + 4 + 4 + 0 (the blocking call) + 40 = m + 52 µs.
//   GPU:  launch 10 + k1 10 + gap (m − 4) + k2 10 + 0 + k3 10 + sync 0 + 40 = m + 76 µs.
std::string context_sync_after_gap(int m) {
  const std::string context_sync =
      R"({"ph": "X", "cat": "cuda_sync", "name": "Context Sync", "pid": 0, "tid": -1, "ts": )" +
      std::to_string(42 + m) + R"(, "dur": 18, "args": {"cuda_sync_kind": "Context Sync", "stream": 4294967295, )"
      R"("correlation": 4, "device": 0}})";
  return "{\"traceEvents\": [{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1}," +
         cpu("cuda_runtime", "cudaLaunchKernel", 0, 4, 1) + "," + cpu("cuda_runtime", "cudaMalloc", 5, m) + "," +
         cpu("cuda_runtime", "cudaLaunchKernel", 6 + m, 4, 2) + "," +
         cpu("cuda_runtime", "cudaLaunchKernel", 11 + m, 4, 3) + "," +
         cpu("cuda_runtime", "cudaDeviceSynchronize", 40 + m, 20, 4) + "," + context_sync + "," +
         cpu("cpu_op", "aten::after", 60 + m, 40) + "," + kernel("k1", 10, 10, 1) + "," +
         kernel("k2", 16 + m, 10, 2) + "," + kernel("k3", 26 + m, 10, 3) + "]}";
}

}  // namespace

TEST_CASE("critical path: a Context Sync carries the path through kernels after a short gap",
          "[hta][critical_path]") {
  // m = 1000: the gap k1 → k2 is 996 µs, under HTA's 1.5 ms: the GPU route, 1076 µs,
  // beats the CPU's 1052 µs.
  const auto store = test::load_store(context_sync_after_gap(1000));
  const HtaTrace trace(*store);
  const CriticalPath p = critical_path(trace, HtaOptions{}, false);
  CHECK(total(p) == 1076);
  bool gap = false, sync = false;
  for (const CriticalPathStep& step : p.steps) {
    if (step.type == CpEdgeType::kKernelKernelDelay && step.duration == 996) gap = true;
    if (step.type == CpEdgeType::kSyncDependency) {
      sync = true;
      CHECK(store->name_of(step.from_event) == "k3");
      CHECK(store->name_of(step.to_event) == "cudaDeviceSynchronize");
    }
  }
  CHECK(gap);
  CHECK(sync);
}

TEST_CASE("critical path: no kernel-kernel edge across a gap of 1.5 ms or more", "[hta][critical_path]") {
  // m = 2000: the gap k1 → k2 is 1996 µs; HTA (KERNEL_KERNEL_DELAY_THRESHOLD_US) takes it for
  // a dependency it cannot see and adds no edge, so the GPU route from the first launch
  // breaks (m + 76 = 2076 µs with the edge) and the path is the CPU's, m + 52 = 2052 µs.
  const auto store = test::load_store(context_sync_after_gap(2000));
  const HtaTrace trace(*store);
  const CriticalPath p = critical_path(trace, HtaOptions{}, false);
  CHECK(total(p) == 2052);
  for (const CriticalPathStep& step : p.steps) CHECK(step.type != CpEdgeType::kKernelKernelDelay);
  const Table s = critical_path_summary_table(p, "critical_path_summary");
  CHECK(share(s, "cpu_bound") == 100);
}
