// The verdict sheet of whole reports (Session::report) on hand-made traces, one per
// rule, and on the synthetic decode loop: the numbers worked out from the JSON below.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "api/api_test_traces.h"
#include "api/session.h"
#include "api/verdict_text.h"
#include "support/test_trace.h"

using namespace sollens;
using test::complete_event;

namespace {

// One launch: the op at `cpu_ts` (5 µs), its cudaLaunchKernel 1 µs in, its kernel at
// `gpu_ts` for `dur` µs on `stream`, tied by correlation id `c`.
std::string launch(int c, double cpu_ts, double gpu_ts, double dur, const std::string& kernel = "relu_kernel",
                   const std::string& op = "aten::relu", const std::string& op_args = "", int stream = 7) {
  const std::string ext = R"("External id":)" + std::to_string(c);
  const std::string corr = R"("correlation":)" + std::to_string(c);
  return complete_event("cpu_op", op, std::to_string(cpu_ts), "5", "{" + ext + op_args + "}") + "," +
         complete_event("cuda_runtime", "cudaLaunchKernel", std::to_string(cpu_ts + 1), "2",
                        "{" + ext + "," + corr + "}") + "," +
         complete_event("kernel", kernel, std::to_string(gpu_ts), std::to_string(dur),
                        "{" + ext + "," + corr + R"(,"device":0,"stream":)" + std::to_string(stream) + "}", 0,
                        stream);
}

std::string trace(const std::string& events) { return R"({"traceEvents":[)" + events + "]}"; }

struct Verdict {
  Table sheet{"verdict", TableKind::kSummary};
  std::string headline;
  // The value of a finding (NaN when absent or null).
  double value(const std::string& finding) const {
    for (size_t r = 0; r < sheet.num_rows(); ++r)
      if (sheet.column(0).string_at(r) == finding)
        return sheet.column(1).is_null(r) ? NAN : sheet.column(1).float_at(r);
    return NAN;
  }
  bool has(const std::string& finding) const {
    for (size_t r = 0; r < sheet.num_rows(); ++r)
      if (sheet.column(0).string_at(r) == finding) return true;
    return false;
  }
  std::string column(const std::string& finding, size_t c) const {
    for (size_t r = 0; r < sheet.num_rows(); ++r)
      if (sheet.column(0).string_at(r) == finding) return sheet.column(c).string_at(r);
    return "";
  }
};

Verdict verdict_of(const std::string& json, const std::string& device = "") {
  Session session;
  REQUIRE(test::load_text(session, json).ok());
  ReportRequest request;
  request.device_name = device;
  request.no_hta = true;
  Report report = session.report(request);
  REQUIRE(report.find("verdict"));
  CHECK(report.sheets.back().name() == "verdict");  // last: it sums up the sheets before it
  return {*report.find("verdict"), report_headline(report)};
}

// q @ w with q [m, k], w [k, n], bf16.
std::string mm_args(int m, int k, int n) {
  return R"(,"Input Dims":[[)" + std::to_string(m) + "," + std::to_string(k) + "],[" + std::to_string(k) + "," +
         std::to_string(n) + R"(]],"Input type":["c10::BFloat16","c10::BFloat16"])";
}

}  // namespace

TEST_CASE("verdict: launch-bound when the host launches each kernel after the last has ended", "[verdict]") {
  // Kernels of 10 µs at 4, 114 and 224, each launched 1 µs after its op starts at 0, 110,
  // 220 (the launch at 111 comes after the kernel before ended at 14): wall 4 → 234 =
  // 230 µs, busy 30, idle 200 = 86.96 %, all of it host wait.
  const Verdict v = verdict_of(trace(launch(1, 0, 4, 10) + "," + launch(2, 110, 114, 10) + "," +
                                     launch(3, 220, 224, 10)));
  CHECK(v.headline == "launch-bound: 87 % idle; no repeating steps found");
  CHECK(v.value("gpu_idle_pct") == Approx(200.0 / 230 * 100));
  CHECK(v.value("idle_host_wait_ms") == Approx(0.2));
  CHECK(v.value("idle_kernel_wait_ms") == Approx(0).margin(1e-12));
  CHECK(v.value("idle_other_ms") == Approx(0).margin(1e-12));
  CHECK(v.column("headline", 4) == "launch-delays");
  CHECK(v.column("device", 3) == "no GPU model: speed of light not estimated (name the GPU to get it)");  // no device: no SOL rows
  CHECK_FALSE(v.has("sol_wall_efficiency_pct"));
  CHECK_FALSE(v.has("sol_gap.1"));
  CHECK(v.value("top_op.1") == Approx(0.03));  // aten::relu: 3 × 10 µs
  CHECK(v.column("top_op.1", 5) == "aten::relu");
  CHECK(v.column("top_kernel.1", 5) == "relu_kernel");
  CHECK(v.column("top_kernel.1", 4) == "kernels");
}

TEST_CASE("verdict: sync-bound when the kernels were launched but wait", "[verdict]") {
  // All three launched at 1, 11, 21; the kernels run at 10, 100 and 200 for 10 µs: the
  // gaps 20 → 100 and 110 → 200 (170 µs) have their kernel queued and are ≥ 30 µs:
  // other. Wall 10 → 210 = 200 µs, idle 170 = 85 %.
  const Verdict v = verdict_of(trace(launch(1, 0, 10, 10) + "," + launch(2, 10, 100, 10) + "," +
                                     launch(3, 20, 200, 10)));
  CHECK(v.headline == "sync-bound: 85 % idle; no repeating steps found");
  CHECK(v.value("idle_other_ms") == Approx(0.17));
  CHECK(v.value("bound_by") == Approx(85));
}

TEST_CASE("verdict: communication-bound when the collective is not hidden", "[verdict]") {
  // A 10 µs kernel at 10 on stream 7, then a 90 µs NCCL all-reduce at 20 on stream 20:
  // busy 100 µs with no idle, the all-reduce's 90 µs exposed: 90 % of busy time.
  const Verdict v = verdict_of(trace(
      launch(1, 0, 10, 10) + "," +
      launch(2, 1, 20, 90, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
             "c10d::allreduce_", "", 20)));
  CHECK(v.headline == "communication-bound: 90 % of GPU busy time is exposed communication; no repeating steps found");
  CHECK(v.value("exposed_comm_ms") == Approx(0.09));
  CHECK(v.column("headline", 4) == "collectives");
}

TEST_CASE("verdict: compute-bound and memory-bound GEMMs on an H100", "[verdict]") {
  // [4096, 4096] @ [4096, 4096] bf16: 2 · 4096³ = 137.4 GFLOP (139 µs at 989 TFLOP/s)
  // against 3 · 32 MiB = 100.7 MB (30 µs at 3.35 TB/s): its SOL is FLOP time. The kernel
  // runs 200 µs with nothing else: no idle.
  const Verdict compute = verdict_of(trace(launch(1, 0, 10, 200, "sm90_xmma_gemm_bf16", "aten::mm",
                                                  mm_args(4096, 4096, 4096))), "H100_SXM5_80GB");
  CHECK(compute.headline.starts_with("compute-bound: GPU busy 100 %, 100 % of SOL in FLOPs"));
  CHECK(compute.value("bound_by") == Approx(100));
  // [1, 8192] @ [8192, 8192]: 134 MB read (40 µs) for 0.13 GFLOP (0.14 µs): byte time.
  const Verdict memory = verdict_of(trace(launch(1, 0, 10, 60, "gemv2T_kernel", "aten::mm",
                                                 mm_args(1, 8192, 8192))), "H100_SXM5_80GB");
  CHECK(memory.headline.starts_with("memory-bound: GPU busy 100 %, 100 % of SOL in bytes"));
  CHECK(memory.column("device", 3) == "H100_SXM5_80GB");
  CHECK(memory.has("sol_gap.1"));
  CHECK(memory.column("sol_gap.1", 5) == "aten::mm");
  CHECK(memory.column("sol_gap.1", 4) == "sol");
}

TEST_CASE("verdict: no GPU work", "[verdict]") {
  const Verdict v = verdict_of(trace(complete_event("cpu_op", "aten::relu", "0", "5")));
  CHECK(v.headline == "no GPU work in the trace");
  CHECK_FALSE(v.has("top_kernel.1"));
  // No GPU time: no shares of it (idle would be 0 / 0).
  CHECK_FALSE(v.has("gpu_idle_pct"));
  CHECK_FALSE(v.has("wall_ms"));
}

TEST_CASE("verdict: steps without a GPU model (a GPU-only trace of 12 steps)", "[verdict]") {
  // 12 steps of 10 kernels of 1 µs, 1 µs apart (api_test_traces.h): a step every 20 µs,
  // 10 µs of it busy. No kernel has a launch in the trace, so the GPU timeline (linked
  // kernels only, as TraceLens) is empty: the verdict reads the wall of every GPU event,
  // 0 → 239 µs, busy 120, idle 119 (49.8 %, under half): kernel-bound. The mean step wall
  // counts the last step, followed by none, as its span: (11 · 20 + 19) / 12 = 19.92 µs.
  const Verdict v = verdict_of(test::repeating_kernels_trace(12));
  CHECK(v.headline == "kernel-bound: GPU busy 50 %; 12 steps; each step 0.0199 ms wall, 0.01 ms of GPU work");
  CHECK(v.value("wall_ms") == Approx(0.239));
  CHECK(v.value("gpu_busy_ms") == Approx(0.120));
  CHECK(v.value("idle_other_ms") == Approx(0.119));
  CHECK(v.value("steps.step") == 12);
  CHECK(v.value("step_wall_ms.step") == Approx((11 * 20 + 19) / 12.0 / 1e3));
  CHECK(v.value("step_gpu_ms.step") == Approx(0.010));
  CHECK(v.column("steps.step", 4) == "cycles");
  CHECK_FALSE(v.has("step_sol_ms.step"));  // no GPU model: no estimates
}

TEST_CASE("verdict: the unannotated decode loop, 1 prefill + 31 decode steps", "[verdict]") {
  // hf_decode_loop.json (its script): forward f starts at 1310 f µs, its first kernel 7 µs
  // later, so a decode step's period is 1310 µs; the last, followed by none, counts its
  // span, 30 · 10 + 3 = 303 µs: the mean is (30 · 1310 + 303) / 31 = 1277.5 µs. The prefill's 31 kernels of 30 µs run
  // back to back from 7 to 937; each decode forward's 31 kernels of 3 µs start 7 µs
  // after their op, 10 µs apart; the last ends at 1310 · 31 + 10 · 30 + 7 + 3 = 40920.
  // Wall 40913 µs, busy 930 + 31 · 31 · 3 = 3813 µs, idle 37100 µs = 90.68 %, every gap
  // before a kernel whose launch came after it opened: host wait.
  const Verdict v = verdict_of(test::fixture_text("synthetic/hf_decode_loop.json"), "H100_SXM5_80GB");
  CHECK(v.headline.starts_with("launch-bound: 91 % idle; 1 prefill + 31 decode steps; each decode step 1.28 ms wall, "));
  CHECK(v.value("gpu_idle_pct") == Approx(37100.0 / 40913 * 100));
  CHECK(v.value("idle_host_wait_ms") == Approx(37.1));
  CHECK(v.value("steps.prefill") == 1);
  CHECK(v.value("steps.decode") == 31);
  CHECK(v.value("step_wall_ms.decode") == Approx((30 * 1310 + 303) / 31.0 / 1e3));
  CHECK(v.value("step_gpu_ms.decode") == Approx(31 * 3 / 1e3));
  CHECK(v.column("steps.decode", 4) == "llm");
  CHECK(v.value("step_sol_efficiency_pct.decode") ==
        Approx(v.value("step_sol_ms.decode") / v.value("step_wall_ms.decode") * 100));
}
