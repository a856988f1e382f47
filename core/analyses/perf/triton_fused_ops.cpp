#include "analyses/perf/triton_fused_ops.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <optional>
#include <unordered_set>

namespace sollens::perf {

namespace {

struct FlopsPerElement {
  std::string_view op;
  int flops;
};

// TraceLens's table (arithmetic per element; ops that only move memory count 0).
constexpr std::array<FlopsPerElement, 28> kFlopsPerElement = {{
    {"add", 1},  {"sub", 1},    {"mul", 1},     {"div", 1},       {"pow", 2},     {"sqrt", 2},     {"rsqrt", 2},
    {"exp", 4},  {"log", 4},    {"sigmoid", 4}, {"tanh", 4},      {"relu", 1},    {"silu", 4},     {"gelu", 8},
    {"mean", 1}, {"sum", 1},    {"var", 2},     {"abs", 1},       {"neg", 1},     {"reciprocal", 2}, {"ne", 1},
    {"eq", 1},   {"lt", 1},     {"gt", 1},      {"_to_copy", 0},  {"copy_", 0},   {"clone", 0},    {"embedding", 0},
}};

constexpr std::string_view kAtenOperators[] = {
#include "analyses/perf/aten_operators.inc"
};

const std::unordered_set<std::string_view>& aten_operators() {
  static const std::unordered_set<std::string_view> names(std::begin(kAtenOperators), std::end(kAtenOperators));
  return names;
}

// "triton_<kind>_fused_<words>_<digits>" → the <words>; nullopt when it does not match.
std::optional<std::string_view> fused_words(std::string_view name) {
  for (std::string_view kind : {"triton_poi_fused_", "triton_red_fused_", "triton_per_fused_"}) {
    if (!name.starts_with(kind)) continue;
    std::string_view rest = name.substr(kind.size());
    const size_t us = rest.rfind('_');
    if (us == std::string_view::npos || us == 0 || us + 1 == rest.size()) return std::nullopt;
    const std::string_view digits = rest.substr(us + 1);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      return std::nullopt;
    return rest.substr(0, us);
  }
  return std::nullopt;
}

// The split of `words` into registry names separated by one '_' with the fewest names;
// nullopt when there is none. fewest[i]: names needed for words[i..] (i = 0 or just
// after a separator); next[i]: where the chosen first name of words[i..] ends.
std::optional<std::vector<std::string_view>> split_by_registry(std::string_view words) {
  const size_t n = words.size();
  constexpr size_t kNone = std::numeric_limits<size_t>::max();
  std::vector<size_t> fewest(n + 1, kNone), next(n + 1, kNone);
  fewest[n] = 0;
  for (size_t i = n; i-- > 0;) {
    for (size_t end = n; end > i; --end) {  // longer names first: they win ties
      if (end < n && words[end] != '_') continue;
      const size_t after = end < n ? end + 1 : n;
      if (end < n && after == n) continue;  // a trailing '_' ends no name
      if (fewest[after] == kNone || !aten_operators().contains(words.substr(i, end - i))) continue;
      if (fewest[i] == kNone || fewest[after] + 1 < fewest[i]) {
        fewest[i] = fewest[after] + 1;
        next[i] = end;
      }
    }
  }
  if (n == 0 || fewest[0] == kNone) return std::nullopt;
  std::vector<std::string_view> ops;
  for (size_t i = 0; i < n;) {
    ops.push_back(words.substr(i, next[i] - i));
    i = next[i] < n ? next[i] + 1 : n;
  }
  return ops;
}

// TraceLens's fallback: the longest FLOPs-table name that starts the rest, else skip a word.
std::vector<std::string_view> split_by_flops_table(std::string_view rest) {
  std::vector<std::string_view> ops;
  while (!rest.empty()) {
    std::string_view hit;
    for (const FlopsPerElement& entry : kFlopsPerElement) {
      const std::string_view op = entry.op;
      const bool starts = rest == op || (rest.starts_with(op) && rest[op.size()] == '_');
      if (starts && op.size() > hit.size()) hit = op;
    }
    if (!hit.empty()) {
      ops.push_back(hit);
      rest.remove_prefix(hit.size());
      while (!rest.empty() && rest.front() == '_') rest.remove_prefix(1);
    } else {
      const size_t us = rest.find('_');
      rest = us == std::string_view::npos ? std::string_view() : rest.substr(us + 1);
    }
  }
  return ops;
}

}  // namespace

std::vector<std::string_view> fused_aten_ops(std::string_view kernel_name) {
  const auto words = fused_words(kernel_name);
  if (!words) return {};
  if (auto ops = split_by_registry(*words)) return *ops;
  return split_by_flops_table(*words);
}

int fused_op_flops_per_element(std::string_view op) {
  for (const FlopsPerElement& entry : kFlopsPerElement)
    if (entry.op == op) return entry.flops;
  return 0;
}

}  // namespace sollens::perf
