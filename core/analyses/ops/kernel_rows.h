#pragma once
// TraceLens's get_df_kernels: one row per `kernel` event (linked or not; memcpy and
// memset excluded), in file order, with its launcher (the runtime parent) and its
// nearest cpu_op ancestor (any name, `execute` included). Feeds kernel_summary and
// the short-kernel sheets.
#include <cstdint>
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

struct KernelRow {
  uint32_t event;
  int32_t launcher = kNoParent;  // runtime event, or kNoParent (unlinked)
  int32_t cpu_op = kNoParent;    // nearest cpu_op above the launcher, or kNoParent
};

std::vector<KernelRow> kernel_rows(const EventStore& store, const TraceTree& tree);

}  // namespace sollens
