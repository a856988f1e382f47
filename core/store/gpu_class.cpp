#include "store/gpu_class.h"

#include <array>

namespace sollens {

namespace {

bool contains_ignore_case(std::string_view text, std::string_view lower_needle) {
  if (lower_needle.size() > text.size()) return false;
  for (size_t i = 0; i + lower_needle.size() <= text.size(); ++i) {
    size_t k = 0;
    while (k < lower_needle.size()) {
      char c = text[i + k];
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
      if (c != lower_needle[k]) break;
      ++k;
    }
    if (k == lower_needle.size()) return true;
  }
  return false;
}

// ^(MEMORY_COPY_(HOST_TO_DEVICE|DEVICE_TO_HOST|DEVICE_TO_DEVICE)|__amd_rocclr_copyBuffer(Rect)?(Aligned)?)(\.kd)?$
bool is_rocm_copy_kernel(std::string_view name) {
  if (name.size() > 3 && name.substr(name.size() - 3) == ".kd") name.remove_suffix(3);
  static constexpr std::array<std::string_view, 7> kNames = {
      "MEMORY_COPY_HOST_TO_DEVICE", "MEMORY_COPY_DEVICE_TO_HOST",  "MEMORY_COPY_DEVICE_TO_DEVICE",
      "__amd_rocclr_copyBuffer",    "__amd_rocclr_copyBufferRect", "__amd_rocclr_copyBufferAligned",
      "__amd_rocclr_copyBufferRectAligned"};
  for (auto n : kNames)
    if (name == n) return true;
  return false;
}

}  // namespace

bool is_collective_kernel_name(std::string_view name) {
  return contains_ignore_case(name, "nccl") || contains_ignore_case(name, "rccl") ||
         contains_ignore_case(name, "cross_device_reduce");
}

GpuClass classify_gpu_event(Category category, std::string_view name) {
  if (category == Category::kGpuMemcpy) return GpuClass::kMemcpy;
  if (category == Category::kKernel && is_rocm_copy_kernel(name)) return GpuClass::kMemcpy;
  if (name.find("__amd_rocclr_fillBuffer") != std::string_view::npos) return GpuClass::kComputation;
  if (is_collective_kernel_name(name)) return GpuClass::kCommunication;
  return GpuClass::kComputation;
}

}  // namespace sollens
