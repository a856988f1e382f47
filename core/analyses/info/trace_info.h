#pragma once
// What a trace is: format and version hints, devices, ranks, event counts by
// category, time span, and what ingest and tree building had to work around.
#include <string>
#include <utility>
#include <vector>

#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens {

struct TraceInfo {
  std::string format;                 // e.g. "Kineto JSON object (schemaVersion 1)"
  std::vector<std::string> version_hints;
  std::vector<std::pair<std::string, size_t>> events_by_category;  // most first
  std::vector<std::pair<std::string, size_t>> events_by_phase;
  size_t events = 0;
  size_t gpu_events = 0;
  size_t linked_gpu_events = 0;
  // Summed durations of the GPU events (kernels, memcpy, memset), and of those with no
  // launch linked to them: what the GPU timeline leaves out unless asked to include them.
  double gpu_time_us = 0;
  double unlinked_gpu_time_us = 0;
  LinkMode linked_by = LinkMode::kFlows;  // how GPU events were tied to their launches
  std::vector<std::string> gpu_devices;  // pids of GPU activity, as in the trace
  double first_ts_us = 0;
  double last_end_us = 0;
  std::vector<Diagnostic> warnings;  // ingest warnings plus tree findings
};

TraceInfo describe_trace(const EventStore& store, const TraceTree& tree);

// The warning for GPU events linked by correlation id instead of TraceLens's flow
// events; "" when they were linked through flows.
std::string correlation_linking_notice(const TraceTree& tree);

}  // namespace sollens
