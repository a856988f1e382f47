#pragma once
// HTA's trace diff by op name (hta/trace_diff.py, compare_traces and ops_diff with
// DeviceType.CPU): host ops (cpu_op, user_annotation, cuda_runtime, cuda_driver; complete
// events) counted and timed per name in each run, and each name classed as added
// (only the new run has it), deleted, increased, decreased or unchanged (by count).
// Unlike HTA, over the whole trace rather than one chosen iteration.
#include "analyses/diff/table_compare.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

// "ops_diff": name, change, diff_counts, diff_duration_us, <tag>::counts,
// <tag>::total_duration_us; rows by name.
Table ops_name_diff_table(const EventStore& baseline, const EventStore& variant, const CompareTags& tags);

}  // namespace sollens
