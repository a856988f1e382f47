#pragma once
// The analysis on a time axis: the lanes a trace's events run on (CPU threads with
// their op nesting, each thread's runtime launches, one lane per GPU stream), the
// events on them with their launch ↔ GPU partner, category and SOL efficiency, and
// the spans drawn over them (steps, phases and layers from cycles, the critical
// paths, the longest launch delays). Times are µs from the trace's start (the first
// event's ts, as trace_info's first_ts_us). One pass over the store plus one sort;
// names are the store's interned strings until the sheet is written. See README.md.
#include <cstdint>
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"
#include "table/table.h"

namespace sollens {

struct CycleReport;
struct SolOps;
namespace hta {
struct CriticalPath;
}

// A critical path to draw, with the words its segments are labelled by.
struct TimeAxisPath {
  const hta::CriticalPath* path = nullptr;
  const char* label = "";  // e.g. "HTA" or "inferred"
};

struct TimeAxisInputs {
  const CycleReport* cycles = nullptr;          // steps, phases, layers; null: none drawn
  std::vector<TimeAxisPath> critical_paths;     // drawn in this order
  // Per store row: the SOL efficiency (estimate / measured, 0..1) of the op a GPU event
  // counts for, negative where none. Empty: no efficiencies.
  std::vector<float> gpu_sol_efficiency;
  // The SOL ops (of the same cycles): each step's and layer's value is its SOL latency
  // over its span (analyses/sol/sol_steps.h). Null: no values.
  const SolOps* sol_ops = nullptr;
  double launch_delay_cutoff_us = 100;  // HTA's cutoff for a launch-delay outlier
  size_t max_launch_delays = 1000;      // the longest ones over the cutoff, at most
};

struct TimeAxis {
  double trace_start_us = 0;  // absolute µs of the trace's start (the origin of every time)
  Table lanes{"time_axis_lanes", TableKind::kTimeline};
  Table events{"time_axis_events", TableKind::kTimeline};
  Table spans{"time_axis_spans", TableKind::kTimeline};
  // Per store row: the event's row in `events`, or -1 (range summaries and details).
  std::vector<int32_t> sheet_row_of;
};

// The first event's ts (Complete and Instant events), or 0 for a trace without any.
double trace_start_us(const EventStore& store);

TimeAxis build_time_axis(const EventStore& store, const TraceTree& tree, const TimeAxisInputs& inputs = {});

}  // namespace sollens
