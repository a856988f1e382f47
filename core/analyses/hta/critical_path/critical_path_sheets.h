#pragma once
// The critical path as sheets: HTA's CPGraph.summary() (critical_path_summary) and
// get_critical_path_breakdown() (critical_path_breakdown), and the same two for the path
// with the inferred GPU → CPU waits (critical_path_inferred_*).
#include <string>
#include <vector>

#include "analyses/hta/critical_path/critical_path.h"
#include "table/table.h"

namespace sollens::hta {

// bound_by, duration: % of the path's length per class, classes in name order.
Table critical_path_summary_table(const CriticalPath& path, std::string name);
// One row per path edge, in path order: event_idx, duration, type, s_name, cat, pid, tid,
// stream, index, bound_by.
Table critical_path_breakdown_table(const HtaTrace& trace, const CriticalPath& path, std::string name);

// The four sheets (none when options.critical_path is false).
std::vector<Table> critical_path_tables(const HtaTrace& trace, const HtaOptions& options);

}  // namespace sollens::hta
