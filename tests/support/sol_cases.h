#pragma once
// The hand-made SOL trace that the sol, report and api tests share, with its numbers
// worked out by hand for the H100 SXM5 of the device database: bf16 dense peak
// 989.4 TFLOPS, DRAM 3.35 TB/s.
//
// aten::mm n×n×n bf16: flops = 2n³, bytes = 3·n²·2.
//   n = 4096: 137,438,953,472 FLOP / 989.4e12 → 138.911414 µs compute;
//             100,663,296 B / 3.35e12 → 30.048 µs memory: compute-bound, estimate 138.911414 µs.
//   n = 64:   524,288 FLOP → 0.00053 µs; 24,576 B / 3.35e12 → 0.0073361 µs: memory-bound.
#include <string>

#include "analyses/ops/trace_builder.h"

namespace sollens::test {

inline constexpr double kBigMmUs = 137438953472.0 / 989.4e12 * 1e6;  // 138.911414
inline constexpr double kSmallMmUs = 24576.0 / 3.35e12 * 1e6;        // 0.0073361

inline std::string mm_args(int n) {
  const std::string d = std::to_string(n);
  return R"("Input Dims":[[)" + d + "," + d + "],[" + d + "," + d +
         R"(]],"Input type":["c10::BFloat16","c10::BFloat16"],"Input Strides":[[)" + d + ",1],[" + d +
         R"(,1]],"Concrete Inputs":["",""])";
}

inline std::string annotation(const std::string& name, double ts, double dur) {
  return R"({"ph":"X","cat":"user_annotation","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
         std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + "}";
}

// Phase "train/fwd" holds module Block_0, which holds module Linear_0 (an mm 4096, kernel
// 300 µs) and, directly, an mm 64 (kernel 2 µs) and an aten::cat (no model, kernel 5 µs).
// Phase "train/bwd" holds module Linear_1 with an mm 4096 whose kernel takes 100 µs:
// faster than its 138.9 µs estimate. Phase "eval" has an mm 64 outside any module (1 µs).
// So: 4 estimated ops, 2·kBigMmUs + 2·kSmallMmUs estimated against 403 µs measured; the
// cat is unmodeled (5 µs); layer types Linear (2 ops, 400 µs), Block (1 op, 2 µs, and
// the cat), "(no module) GEMM" (1 op, 1 µs).
inline std::string two_modules_two_phases() {
  TraceBuilder t;
  t.raw(annotation("train/fwd", 0, 1000))
      .python("nn.Module: Block_0", 5, 495)
      .python("nn.Module: Linear_0", 10, 90)
      .cpu_op("aten::mm", 20, 5, mm_args(4096)).launch(21, "big_gemm", 200, 300)
      .cpu_op("aten::mm", 150, 5, mm_args(64)).launch(151, "small_gemm", 600, 2)
      .cpu_op("aten::cat", 200, 5).launch(201, "cat_kernel", 700, 5)
      .raw(annotation("train/bwd", 1000, 1000))
      .python("nn.Module: Linear_1", 1010, 90)
      .cpu_op("aten::mm", 1020, 5, mm_args(4096)).launch(1021, "big_gemm", 1200, 100)
      .raw(annotation("eval", 3000, 100))
      .cpu_op("aten::mm", 3010, 5, mm_args(64)).launch(3011, "small_gemm", 3100, 1);
  return t.json();
}

}  // namespace sollens::test
