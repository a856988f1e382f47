#include "analyses/time_axis/event_detail.h"

#include <algorithm>

namespace sollens {
namespace {

// The SOL op a row counts for: a GPU event's own, else (a launch, an op) the first GPU
// event below it that has one.
const SolOp* sol_op_of(const EventStore& s, const TraceTree& tree, uint32_t row, const SolOps& ops) {
  auto of_gpu = [&](uint32_t g) -> const SolOp* {
    const int32_t i = g < ops.op_of_gpu_event.size() ? ops.op_of_gpu_event[g] : -1;
    return i < 0 ? nullptr : &ops.ops[static_cast<size_t>(i)];
  };
  if (is_gpu_activity(s.category[row])) return of_gpu(row);
  std::vector<uint32_t> stack{row};
  while (!stack.empty()) {
    const uint32_t e = stack.back();
    stack.pop_back();
    for (uint32_t c : tree.children(e)) {
      if (is_gpu_activity(s.category[c])) {
        if (const SolOp* op = of_gpu(c)) return op;
      } else {
        stack.push_back(c);
      }
    }
  }
  return nullptr;
}

}  // namespace

EventDetail event_detail(const EventStore& s, const TraceTree& tree, uint32_t row, double origin, const SolOps* ops) {
  EventDetail d;
  d.name = s.name_of(row);
  d.category = s.str(s.cat[row]);
  d.start_us = s.ts[row] - origin;
  d.dur_us = s.dur[row];
  if (s.has_args(row)) d.args_json = s.args_json(row);
  const std::pair<const char*, int64_t> ids[] = {{"correlation", s.correlation[row]}, {"External id", s.external_id[row]},
                                                 {"stream", s.stream[row]}, {"device", s.device[row]}};
  for (const auto& [key, value] : ids)
    if (value != kNoValue) d.ids.emplace_back(key, value);
  for (int32_t p = tree.parent[row]; p != kNoParent; p = tree.parent[static_cast<uint32_t>(p)]) {
    const Category c = s.category[static_cast<uint32_t>(p)];
    if (c == Category::kCpuOp || c == Category::kUserAnnotation) d.op_chain.push_back(s.name_of(static_cast<uint32_t>(p)));
  }
  std::reverse(d.op_chain.begin(), d.op_chain.end());
  if (ops) d.sol_op = sol_op_of(s, tree, row, *ops);
  return d;
}

}  // namespace sollens
