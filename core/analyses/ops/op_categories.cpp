#include "analyses/ops/op_categories.h"

#include <string>
#include <unordered_map>

namespace sollens {

namespace {

constexpr OpRegistryEntry kRegistry[] = {
#include "analyses/ops/op_registry_table.inc"
};

const std::unordered_map<std::string_view, const OpRegistryEntry*>& registry() {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string_view, const OpRegistryEntry*>();
    for (const auto& e : kRegistry) m->emplace(e.name, &e);
    return m;
  }();
  return *map;
}

}  // namespace

std::optional<OpRegistryEntry> find_op_registry_entry(std::string_view op_name) {
  const auto& r = registry();
  auto it = r.find(op_name);
  if (it == r.end()) return std::nullopt;
  return *it->second;
}

std::string_view categorize_op(std::string_view op_name,
                               std::optional<std::string_view> first_kernel_name) {
  if (auto e = find_op_registry_entry(op_name)) return e->category;
  if (op_name.starts_with("triton")) return "triton";
  if (op_name.starts_with("record_param_comms")) return "record_param_comms";
  if (first_kernel_name && first_kernel_name->starts_with("void at::native")) {
    const std::string_view k = *first_kernel_name;
    if (k.find("elementwise") != std::string_view::npos) return "elementwise";
    if (k.find("reduce") != std::string_view::npos) return "reduce";
    if (k.find("multi_tensor_apply") != std::string_view::npos) return "multi_tensor_apply";
  }
  return "other";
}

}  // namespace sollens
