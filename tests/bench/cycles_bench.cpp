// Cycle-detection benchmark on a synthetic trace (no file): N decode-like steps of
// L layers with per-step noise, about `kernels` kernels in one sequence. Called from
// sollens_bench's main as `sollens_bench --cycles [KERNELS]` (default 1,000,000).
// Prints the detection time for n/8, n/4, n/2 and n kernels so near-linearity shows,
// in structure mode (the default) and, for comparison, uplifter's pipeline.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "analyses/cycles/cycle_detect.h"
#include "analyses/cycles/kernel_sequence.h"

int run_cycles_bench(size_t kernels) {
  using namespace sollens;
  // Step: embed, 32 layers × 14 kernels, noise (new name every step), lm_head, sampler:
  // 452 kernels. 96 kernel names per layer pool would be realistic; 14 keeps it short.
  const int layers = 32, per_layer = 14;
  const size_t step_len = 1 + layers * per_layer + 3;
  std::printf("cycles bench: steps of %zu kernels (%d layers x %d)\n", step_len, layers, per_layer);
  std::printf("%12s %10s %12s %14s %16s %s\n", "kernels", "build ms", "detect ms", "ns/kernel",
              "uplifter ns/k", "found");
  for (size_t n : {kernels / 8, kernels / 4, kernels / 2, kernels}) {
    std::vector<std::string> names;
    std::vector<double> dur;
    names.reserve(n);
    dur.reserve(n);
    uint32_t lcg = 7;
    for (size_t step = 0; names.size() < n; ++step) {
      auto add = [&](std::string name, double d) {
        lcg = lcg * 1664525u + 1013904223u;
        names.push_back(std::move(name));
        dur.push_back(d + (lcg >> 24) / 256.0);
      };
      add("embed", 2);
      for (int l = 0; l < layers; ++l)
        for (int k = 0; k < per_layer; ++k) add("layer_kernel_" + std::to_string(k) + "x", 5);
      add("noise_" + std::to_string(step), 1);
      add("lm_head", 9);
      add("sampler", 3);
    }
    names.resize(n);
    dur.resize(n);
    auto t0 = std::chrono::steady_clock::now();
    const KernelSequence seq = make_kernel_sequence(names, dur);
    const double build_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    // Best of 3, structure mode (the default) and uplifter's pipeline.
    std::vector<CyclePattern> patterns;
    const auto best_ms = [&](const CycleOptions& options) {
      double best = 1e300;
      for (int rep = 0; rep < 3; ++rep) {
        const auto start = std::chrono::steady_clock::now();
        patterns = detect_cycles(seq, options);
        best = std::min(best, std::chrono::duration<double, std::milli>(
                                  std::chrono::steady_clock::now() - start)
                                  .count());
      }
      return best;
    };
    CycleOptions uplifter;
    uplifter.structure = false;
    const double uplifter_ms = best_ms(uplifter);
    const double best = best_ms(CycleOptions{});
    std::string found = "none";
    if (!patterns.empty()) {
      const auto& p = patterns[0];
      found = std::to_string(p.outer.repetitions()) + " x " + std::to_string(p.outer.length);
      if (p.layer) found += ", " + std::to_string(p.layers_per_outer) + " layers of " +
                            std::to_string(p.layer->length);
    }
    std::printf("%12zu %10.1f %12.2f %14.1f %16.1f %s\n", n, build_ms, best,
                best * 1e6 / static_cast<double>(n), uplifter_ms * 1e6 / static_cast<double>(n),
                found.c_str());
  }
  return 0;
}
