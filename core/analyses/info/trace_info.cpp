#include "analyses/info/trace_info.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace sollens {

namespace {
std::string phase_label(Phase p) {
  switch (p) {
    case Phase::kNone: return "(none)";
    case Phase::kComplete: return "X";
    case Phase::kBegin: return "B";
    case Phase::kEnd: return "E";
    case Phase::kInstant: return "i";
    case Phase::kFlowStart: return "s";
    case Phase::kFlowStep: return "t";
    case Phase::kFlowEnd: return "f";
    case Phase::kMetadata: return "M";
    case Phase::kCounter: return "C";
    case Phase::kOther: return "other";
  }
  return "other";
}
}  // namespace

TraceInfo describe_trace(const EventStore& s, const TraceTree& tree) {
  TraceInfo info;
  const TraceMetadata& m = s.metadata;
  info.events = s.size();
  if (m.execution_trace) {
    info.format = "PyTorch Execution Trace (operator graph without timings)";
  } else if (m.top_level_array) {
    info.format = "legacy top-level event array (2020 Kineto or the autograd profiler)";
  } else {
    info.format = "Kineto JSON object";
    if (m.schema_version != kNoValue)
      info.format += " (schemaVersion " + std::to_string(m.schema_version) + ")";
  }

  // Counted by interned id and phase in one pass (strings made once per distinct
  // value, not per event: a large trace has millions of events and a few dozen cats).
  std::vector<size_t> cat_count(s.strings.size(), 0);
  std::vector<Category> category_of_cat(s.strings.size(), Category::kUnknown);
  std::vector<uint8_t> gpu_pid(s.strings.size(), 0);
  std::array<size_t, static_cast<size_t>(Phase::kOther) + 1> phase_count{};
  bool fractional_ts = false;
  double first = std::numeric_limits<double>::infinity(), last = -first;
  for (size_t i = 0; i < s.size(); ++i) {
    ++cat_count[s.cat[i]];
    category_of_cat[s.cat[i]] = s.category[i];  // the category is the cat text's
    ++phase_count[static_cast<size_t>(s.phase[i])];
    if (is_gpu_activity(s.category[i])) {
      ++info.gpu_events;
      gpu_pid[s.pid[i]] = 1;
    }
    if (s.phase[i] == Phase::kComplete || s.phase[i] == Phase::kInstant) {
      first = std::min(first, s.ts[i]);
      last = std::max(last, s.t_end(i));
      if (!fractional_ts && s.ts[i] != std::floor(s.ts[i])) fractional_ts = true;
    }
  }
  std::map<std::string, size_t> by_cat;
  std::map<std::string, size_t> by_phase;
  std::set<std::string> legacy_names, gpu_pids;
  for (StrId id = 0; id < cat_count.size(); ++id) {
    if (gpu_pid[id]) gpu_pids.insert(std::string(s.str(id)));
    if (cat_count[id] == 0) continue;
    const std::string_view raw = s.str(id);
    by_cat[raw.empty() ? std::string("(none)") : std::string(raw)] += cat_count[id];
    const Category c = category_of_cat[id];
    if (c != Category::kOther && c != Category::kUnknown && raw != category_name(c) && c != Category::kFlowLegacy)
      legacy_names.insert(std::string(raw));
  }
  for (size_t p = 0; p < phase_count.size(); ++p)
    if (phase_count[p]) by_phase[phase_label(static_cast<Phase>(p))] += phase_count[p];
  for (auto& [k, v] : by_cat) info.events_by_category.emplace_back(k, v);
  std::stable_sort(info.events_by_category.begin(), info.events_by_category.end(),
                   [](auto& a, auto& b) { return a.second > b.second; });
  for (auto& [k, v] : by_phase) info.events_by_phase.emplace_back(k, v);
  info.gpu_devices.assign(gpu_pids.begin(), gpu_pids.end());
  info.linked_gpu_events = tree.linked_gpu_events;
  for (uint32_t e : tree.gpu_events) {
    info.gpu_time_us += s.dur[e];
    if (!tree.in_tree[e]) info.unlinked_gpu_time_us += s.dur[e];
  }
  info.linked_by = tree.linked_by;
  if (first <= last) {
    info.first_ts_us = first;
    info.last_end_us = last;
  }

  auto& hints = info.version_hints;
  if (!legacy_names.empty()) {
    std::string names;
    for (auto& n : legacy_names) names += (names.empty() ? "" : ", ") + n;
    hints.push_back("2021-era Kineto category names (" + names + ")");
  }
  if (m.base_time_ns != kNoValue)
    hints.push_back("baseTimeNanoseconds present: written by Kineto from May 2024 on");
  if (fractional_ts)
    hints.push_back("timestamps with ns fractions: Kineto from March 2024 on");
  else if (info.gpu_events + s.size() > 0 && !m.top_level_array)
    hints.push_back("integer-µs timestamps: Kineto before March 2024");
  if (!m.display_time_unit.empty()) hints.push_back("displayTimeUnit " + m.display_time_unit);
  for (auto& [k, v] : m.other)
    if (k.find("version") != std::string::npos) hints.push_back(k + " " + v);

  auto& warnings = info.warnings;
  warnings.insert(warnings.end(), s.warnings.begin(), s.warnings.end());
  if (tree.host_events_dropped)
    warnings.push_back({Code::host_events_dropped,
                        std::to_string(tree.host_events_dropped) +
                            " CPU events overlap their parent without nesting and were left "
                            "out of the call tree (as TraceLens does)"});
  if (info.gpu_events > tree.linked_gpu_events)
    warnings.push_back({Code::gpu_events_unlinked,
                        std::to_string(info.gpu_events - tree.linked_gpu_events) +
                            " GPU events have no launch linked to them (launch outside the "
                            "profiling window, or no flow events); the GPU timeline leaves "
                            "them out, as TraceLens does"});
  if (std::string notice = correlation_linking_notice(tree); !notice.empty())
    warnings.push_back({Code::linked_by_correlation, std::move(notice)});
  if (tree.ambiguous_correlations)
    warnings.push_back({Code::ambiguous_correlations,
                        std::to_string(tree.ambiguous_correlations) +
                            " GPU events carry a correlation id that launches in several "
                            "processes carry: left unlinked"});
  if (tree.used_legacy_flows)
    warnings.push_back({Code::legacy_flows, "no ac2g flows: launches were linked through legacy flow events (async)"});
  if (s.metadata.devices.empty() && info.gpu_events)
    warnings.push_back({Code::no_device_properties, "no deviceProperties: the GPU model is unknown"});
  return info;
}

std::string correlation_linking_notice(const TraceTree& tree) {
  if (tree.linked_by != LinkMode::kCorrelation) return "";
  return "linked " + std::to_string(tree.linked_gpu_events) +
         " GPU events to their launches by correlation id: " +
         (tree.has_launch_flows ? "as asked, the trace's flow events were not used"
                                : "the trace has no flow events");
}

}  // namespace sollens
