#include "analyses/graphs/launch_items.h"

#include <span>

namespace sollens {

namespace {

bool name_has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

LaunchKind launch_kind_of_gpu_event(Category c) {
  if (c == Category::kGpuMemcpy) return LaunchKind::kMemcpy;
  if (c == Category::kGpuMemset) return LaunchKind::kMemset;
  return LaunchKind::kKernel;
}

std::string_view unquote(std::string_view v) { return v.size() >= 2 && v.front() == '"' ? v.substr(1, v.size() - 2) : v; }

}  // namespace

bool is_graph_launch(std::string_view name) { return name.ends_with("GraphLaunch"); }

std::optional<LaunchKind> launch_kind_of_runtime(std::string_view name) {
  if (name_has(name, "Graph")) return std::nullopt;
  if (name_has(name, "Launch") && name_has(name, "Kernel")) return LaunchKind::kKernel;
  if (name_has(name, "Memcpy")) return LaunchKind::kMemcpy;
  if (name_has(name, "Memset")) return LaunchKind::kMemset;
  return std::nullopt;
}

bool has_gpu_child(const EventStore& s, const TraceTree& tree, uint32_t event) {
  for (uint32_t c : tree.children(event))
    if (is_gpu_activity(s.category[c])) return true;
  return false;
}

LaunchItem LaunchReader::gpu_event(uint32_t g) {
  return {g, launch_kind_of_gpu_event(s_.category[g]), s_.name_of(g), raw(g, "grid"), s_.ts[g]};
}

LaunchItem LaunchReader::capture_launch(uint32_t r, LaunchKind kind) {
  const std::string_view name = kind == LaunchKind::kKernel ? unquote(raw(r, "kernel")) : std::string_view{};
  return {r, kind, name, raw(r, "grid"), s_.ts[r]};
}

std::string_view LaunchReader::raw(uint32_t event, std::string_view key) {
  std::string_view value;
  if (!s_.has_args(event) || !args_.find_raw(event, std::span(&key, 1), std::span(&value, 1))) return {};
  return value;
}

}  // namespace sollens
