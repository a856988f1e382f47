#pragma once
// `comm_comp_overlap` (HTA get_comm_comp_overlap): per rank, the % of communication time
// during which computation runs too: the merged COMMUNICATION and merged COMPUTATION
// kernels (breakdown_events.h, HTA's merge and times) swept together; overlapped time ÷
// merged communication time, rounded to 2 decimals. Empty where the rank has no
// communication (HTA divides by zero there). The multi-rank report's comm_comp_overlap
// sheet uses the same computation.
#include "analyses/hta/breakdown_events.h"
#include "analyses/hta/hta_options.h"
#include "model/trace_tree.h"
#include "table/table.h"

namespace sollens::hta {

struct CommCompOverlap {
  double comm_us = 0;        // merged communication time
  double overlapped_us = 0;  // of it, while computation runs
};

CommCompOverlap comm_comp_overlap(const HtaTrace& trace, const BreakdownEvents& events);

// rank, comp_comm_overlap_pctg.
Table comm_comp_overlap_table(const HtaTrace& trace, const TraceTree& tree, const HtaOptions& options);

}  // namespace sollens::hta
