#include "model/sglang_op_names.h"

#include <vector>

namespace sollens {

namespace {

constexpr std::string_view kPrefix = "sglang_profiler::";

bool is_ascii_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::optional<std::string_view> sglang_profiler_base_name(std::string_view name) {
  if (!name.starts_with(kPrefix)) return std::nullopt;
  // Python's `$` also matches just before a final newline.
  std::string_view body = name;
  if (body.ends_with('\n')) body.remove_suffix(1);
  size_t digits = 0;
  while (digits < body.size() && is_ascii_digit(body[body.size() - 1 - digits])) ++digits;
  if (digits == 0) return std::nullopt;
  const size_t underscore = body.size() - digits - 1;
  if (underscore < kPrefix.size() + 1 || body[underscore] != '_') return std::nullopt;
  const std::string_view base = body.substr(0, underscore);
  if (base.substr(kPrefix.size()).find('\n') != std::string_view::npos) return std::nullopt;  // `.` stops at \n
  return base;
}

void strip_sglang_profiler_suffixes(EventStore& s) {
  // Per interned name: 0 not looked at yet, 1 kept, 2 renamed (to renamed_to[id]).
  std::vector<uint8_t> state;
  std::vector<StrId> renamed_to;
  for (size_t e = 0; e < s.size(); ++e) {
    const StrId id = s.name[e];
    if (id >= state.size()) {
      state.resize(id + 1, 0);
      renamed_to.resize(id + 1, 0);
    }
    if (state[id] == 0) {
      state[id] = 1;
      const auto base = sglang_profiler_base_name(s.str(id));
      if (base && s.category[e] == Category::kCpuOp) {
        state[id] = 2;
        renamed_to[id] = s.strings.intern_stable(*base);  // a prefix of a pooled string
      }
    }
    if (state[id] == 2) s.name[e] = renamed_to[id];
  }
}

}  // namespace sollens
