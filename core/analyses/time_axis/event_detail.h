#pragma once
// One event as the time axis's details panel shows it: what it is, when, its args, the
// cpu_ops it runs under, and the perf model and speed of light of the op it counts for.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/sol/sol_ops.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

struct EventDetail {
  std::string_view name;
  std::string_view category;  // the trace's cat
  double start_us = 0;        // from the trace's start
  double dur_us = 0;
  std::string_view args_json;  // the args object as the trace wrote it, where kept; else ""
  std::vector<std::pair<std::string_view, int64_t>> ids;  // correlation, stream, device, ... where given
  std::vector<std::string_view> op_chain;  // enclosing cpu_ops and annotations, outermost first
  const SolOp* sol_op = nullptr;           // the SOL op a GPU event (or a launcher) counts for
};

// null ops: no SOL (then sol_op stays null). `row` must be a store row.
EventDetail event_detail(const EventStore& store, const TraceTree& tree, uint32_t row, double origin,
                         const SolOps* ops);

}  // namespace sollens
