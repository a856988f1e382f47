#pragma once
// Tiny graph-capture and graph-replay traces, ROCm style: a capture-time launch names
// its kernel in args.kernel and never runs; a hipGraphLaunch's kernels carry its
// correlation id. No flow events, so launches link by correlation id.
//
// The capture (thread 1, between hipStreamBeginCapture at 0 and EndCapture at 100):
//   launch 1  aten::mm 4096 (in nn.Module Linear_0)  gemm_A
//   launch 2  aten::add                              add_kernel
//   launch 3  aten::mul                              mul_kernel   <- missing from the replay
//   launch 4  aten::mm 64                            gemm_A
//   launch 5  aten::relu                             relu_kernel
// The replay (hipGraphLaunch at 1000, correlation 99, stream 7):
//   k0 gemm_A      [1010, 1020]   -> launch 1
//   k1 add_kernel  [1020, 1025]   -> launch 2
//   (mul_kernel is not replayed: launch 3 matches nothing; launch 4 matches the next
//    kernel one launch later, so launch 3 is an extra launch)
//   k2 gemm_A      [1030, 1050]   -> launch 4
//   k3 extra_kernel [1050, 1053]  -> nothing (launch 5 matches k4 one kernel later and no
//                                     later launch matches k3, so k3 is skipped)
//   k4 relu_kernel [1055, 1060]   -> launch 5
// Mapped: 4 of 5 kernels, 10 + 5 + 20 + 5 = 40 µs of 43 µs busy.
#include <string>

#include "support/sol_cases.h"

namespace sollens::test {

inline std::string event_list(const std::string& events) { return R"({"traceEvents":[)" + events + "]}"; }

inline std::string host_event(const std::string& cat, const std::string& name, double ts, double dur,
                              const std::string& args = "") {
  return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
         std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{)" + args + "}},";
}

// A runtime launch; `kernel` non-empty: the capture-time args.kernel.
inline std::string runtime_launch(const std::string& name, double ts, int correlation, const std::string& kernel = "",
                                  const std::string& grid = "") {
  std::string args = R"("correlation":)" + std::to_string(correlation);
  if (!kernel.empty()) args += R"(,"kernel":")" + kernel + '"';
  if (!grid.empty()) args += R"(,"grid":)" + grid;
  return host_event("cuda_runtime", name, ts, 1, args);
}

inline std::string gpu_kernel(const std::string& name, double ts, double dur, int correlation,
                              const std::string& grid = "", int stream = 7) {
  std::string args = R"("correlation":)" + std::to_string(correlation) + R"(,"stream":)" + std::to_string(stream);
  if (!grid.empty()) args += R"(,"grid":)" + grid;
  return R"({"ph":"X","cat":"kernel","name":")" + name + R"(","pid":0,"tid":7,"ts":)" + std::to_string(ts) +
         R"(,"dur":)" + std::to_string(dur) + R"(,"args":{)" + args + "}},";
}

inline std::string without_last_comma(std::string s) {
  if (!s.empty() && s.back() == ',') s.pop_back();
  return s;
}

// The captured launches above, each under its op, between the capture marks.
inline std::string captured_ops(double at = 0) {
  return host_event("cuda_runtime", "hipStreamBeginCapture", at, 1) +
         host_event("python_function", "nn.Module: Linear_0", at + 5, 10, R"("Python id":1)") +
         host_event("cpu_op", "aten::mm", at + 10, 3, mm_args(4096)) + runtime_launch("hipLaunchKernel", at + 11, 1, "gemm_A") +
         host_event("cpu_op", "aten::add", at + 20, 3) + runtime_launch("hipLaunchKernel", at + 21, 2, "add_kernel") +
         host_event("cpu_op", "aten::mul", at + 30, 3) + runtime_launch("hipLaunchKernel", at + 31, 3, "mul_kernel") +
         host_event("cpu_op", "aten::mm", at + 40, 3, mm_args(64)) + runtime_launch("hipLaunchKernel", at + 41, 4, "gemm_A") +
         host_event("cpu_op", "aten::relu", at + 50, 3) + runtime_launch("hipLaunchKernel", at + 51, 5, "relu_kernel") +
         host_event("cuda_runtime", "hipStreamEndCapture", at + 100, 1);
}

inline std::string capture_trace() { return event_list(without_last_comma(captured_ops())); }

// The replay's graph launch and its five kernels, under a "decode" annotation.
inline std::string replayed_kernels() {
  return host_event("user_annotation", "decode", 990, 100) + runtime_launch("hipGraphLaunch", 1000, 99) +
         gpu_kernel("gemm_A", 1010, 10, 99) + gpu_kernel("add_kernel", 1020, 5, 99) + gpu_kernel("gemm_A", 1030, 20, 99) +
         gpu_kernel("extra_kernel", 1050, 3, 99) + gpu_kernel("relu_kernel", 1055, 5, 99);
}

inline std::string replay_trace() { return event_list(without_last_comma(replayed_kernels())); }

}  // namespace sollens::test
