#pragma once
// Which timeline class a GPU event belongs to (tracelens-semantics.md §3).
#include <string_view>

#include "store/categories.h"

namespace sollens {

enum class GpuClass { kComputation, kCommunication, kMemcpy };

GpuClass classify_gpu_event(Category category, std::string_view name);

// NCCL / RCCL / custom-all-reduce names: communication, and excluded from op sheets.
bool is_collective_kernel_name(std::string_view name);

}  // namespace sollens
