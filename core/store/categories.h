#pragma once
// Event phases and categories, normalised across Kineto versions: the 2021 names
// (Operator, Runtime, Kernel, Memcpy, ...) map onto today's names, while the raw
// category string stays in the store for anything that needs it.
#include <cstdint>
#include <string_view>

namespace sollens {

enum class Phase : uint8_t {
  kNone = 0,   // element without "ph" (empty {} event, or not an object)
  kComplete,   // X
  kBegin,      // B
  kEnd,        // E
  kInstant,    // i / I
  kFlowStart,  // s
  kFlowStep,   // t
  kFlowEnd,    // f
  kMetadata,   // M
  kCounter,    // C
  kOther,
};

enum class Category : uint8_t {
  kUnknown = 0,
  kCpuOp,
  kUserAnnotation,
  kGpuUserAnnotation,
  kKernel,
  kGpuMemcpy,
  kGpuMemset,
  kCudaRuntime,
  kCudaDriver,
  kPythonFunction,
  kCpuInstant,
  kOverhead,
  kCudaSync,
  kCollective,
  kTrace,          // spans
  kFlowAc2g,       // async CPU->GPU flow, today's name
  kFlowLegacy,     // async CPU->GPU flow, 2021 and HTA names (async, async_cpu_to_gpu, async_gpu)
  kFlowFwdBwd,
  kCounterTrack,   // hardware / injected counters
  kOther,          // a category we keep but do not interpret
  kCount_
};

Phase phase_from_string(std::string_view ph);
Category category_from_string(std::string_view cat);
std::string_view category_name(Category c);  // canonical (modern) name

inline bool is_gpu_activity(Category c) {
  return c == Category::kKernel || c == Category::kGpuMemcpy || c == Category::kGpuMemset;
}
inline bool is_runtime(Category c) {
  return c == Category::kCudaRuntime || c == Category::kCudaDriver;
}

}  // namespace sollens
