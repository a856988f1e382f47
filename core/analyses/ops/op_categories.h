#pragma once
// TraceLens's `op category` (tracelens-semantics.md §5): the op-name registry
// (every op of the perf-model map with its model's category, then the category-only
// ops), then ^triton / ^record_param_comms, then the first kernel's name when it
// starts with "void at::native", else "other".
#include <optional>
#include <string_view>

namespace sollens {

struct OpRegistryEntry {
  std::string_view name;
  std::string_view category;
  bool has_perf_model;  // in op_to_perf_model_class_map (not only category-only)
};

// Registry lookup only (exact name match); nullopt when the name is not registered.
std::optional<OpRegistryEntry> find_op_registry_entry(std::string_view op_name);

// The full rule. first_kernel_name: name of the first of the op's kernel_details,
// or nullopt when the op has none (then the kernel-name fallback is skipped).
std::string_view categorize_op(std::string_view op_name,
                               std::optional<std::string_view> first_kernel_name);

}  // namespace sollens
