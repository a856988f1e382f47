#include "store/categories.h"

#include <array>
#include <cctype>
#include <string>

namespace sollens {

Phase phase_from_string(std::string_view ph) {
  if (ph.size() != 1) return ph.empty() ? Phase::kNone : Phase::kOther;
  switch (ph[0]) {
    case 'X': return Phase::kComplete;
    case 'B': return Phase::kBegin;
    case 'E': return Phase::kEnd;
    case 'i':
    case 'I': return Phase::kInstant;
    case 's': return Phase::kFlowStart;
    case 't': return Phase::kFlowStep;
    case 'f': return Phase::kFlowEnd;
    case 'M': return Phase::kMetadata;
    case 'C': return Phase::kCounter;
    default: return Phase::kOther;
  }
}

namespace {
struct NamedCategory {
  std::string_view name;
  Category category;
};
// Modern names are matched exactly; the 2021 TensorBoard-plugin names below are
// matched case-insensitively, as the plugin did.
constexpr std::array<NamedCategory, 27> kModern = {{
    {"cpu_op", Category::kCpuOp},
    {"user_annotation", Category::kUserAnnotation},
    {"gpu_user_annotation", Category::kGpuUserAnnotation},
    {"kernel", Category::kKernel},
    {"gpu_memcpy", Category::kGpuMemcpy},
    {"gpu_memset", Category::kGpuMemset},
    {"cuda_runtime", Category::kCudaRuntime},
    {"cuda_driver", Category::kCudaDriver},
    {"python_function", Category::kPythonFunction},
    {"cpu_instant_event", Category::kCpuInstant},
    {"overhead", Category::kOverhead},
    {"cuda_sync", Category::kCudaSync},
    {"collective_comm", Category::kCollective},
    {"Trace", Category::kTrace},
    {"ac2g", Category::kFlowAc2g},
    {"async", Category::kFlowLegacy},
    {"async_cpu_to_gpu", Category::kFlowLegacy},
    {"async_gpu", Category::kFlowLegacy},
    {"fwdbwd", Category::kFlowFwdBwd},
    {"hardware_counters", Category::kCounterTrack},
    {"mtia_counters", Category::kCounterTrack},
    {"xpu_runtime", Category::kOther},
    {"xpu_driver", Category::kOther},
    {"privateuse1_runtime", Category::kOther},
    {"privateuse1_driver", Category::kOther},
    {"mtia_runtime", Category::kOther},
    {"cuda_event", Category::kOther},
}};
constexpr std::array<NamedCategory, 8> kLegacy = {{
    {"operator", Category::kCpuOp},
    {"runtime", Category::kCudaRuntime},
    {"kernel", Category::kKernel},
    {"memcpy", Category::kGpuMemcpy},
    {"memset", Category::kGpuMemset},
    {"python", Category::kPythonFunction},
    {"memory", Category::kCpuInstant},
    {"trace", Category::kTrace},
}};
}  // namespace

Category category_from_string(std::string_view cat) {
  if (cat.empty()) return Category::kUnknown;
  for (const auto& m : kModern)
    if (m.name == cat) return m.category;
  std::string lower(cat);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& m : kLegacy)
    if (m.name == lower) return m.category;
  return Category::kOther;
}

std::string_view category_name(Category c) {
  switch (c) {
    case Category::kUnknown: return "";
    case Category::kFlowLegacy: return "async";
    case Category::kCounterTrack: return "counters";
    case Category::kOther: return "other";
    default: break;
  }
  for (const auto& m : kModern)
    if (m.category == c) return m.name;
  return "other";
}

}  // namespace sollens
