#pragma once
// The `coll_analysis` sheet (tracelens-semantics.md §8.2): TraceLens's
// NcclAnalyser.build_df_summary_long for the one rank of a perf report.
//
// Rows are the collective kernels (collective_events.h) grouped by
// [rank, Process Group Name, Process Group Ranks, Collective name, Group size, dtype,
//  In msg nelems, Out msg nelems, In split size, Out split size, stream]
// with pandas' dropna=True: a kernel with any of these missing is left out. A missing
// process group name is first filled with `Unknown_Group`, or, when no kernel has one
// and they all run on one stream ("simplified mode"), every name becomes `all`.
// Columns: the keys, In/Out msg size (MB)_first, dur_sum, dur_mean, dur_std (ddof 1,
// empty for one call), dur_min, dur_max, operation_count; rows by dur_sum descending.
//
// After TraceLens's columns, unless turned off, sollens adds per row:
//   Full msg size (MB)  the Out size for all-gathers, the In size otherwise;
//   algo bw (GB/s)      Full msg size / 1024 / (dur_mean / 1e6);
//   bus bw (GB/s)       algo bw · NCCL's bus factor for the collective and Group size
// (bus_bandwidth.h). One rank's kernel time includes waiting for its peers, so these
// are lower bounds of what the multi-rank report computes from the fastest rank.
#include <vector>

#include "analyses/collectives/collective_events.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct CollAnalysisOptions {
  bool enabled = true;            // TraceLens --disable_coll_analysis: false (build_report skips it)
  bool bandwidth_columns = true;  // the three sollens columns after TraceLens's
};

// The sheet for a trace; no columns and no rows when it has no collective kernel,
// no rows when every one misses a key (TraceLens then writes no sheet).
Table coll_analysis_table(const EventStore& store, const CollAnalysisOptions& options = {});
Table coll_analysis_table(std::vector<collectives::CollectiveEvent> events,
                          const CollAnalysisOptions& options = {});

}  // namespace sollens
