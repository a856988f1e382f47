#include "writers/critical_path_trace.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <utility>

#include "writers/json_builder.h"
#include "writers/trace_splice.h"

namespace sollens {

namespace {

using hta::CpEdgeType;
using hta::CriticalPath;
using hta::CriticalPathStep;

// A pid the trace does not use: one past its largest numeric pid.
int64_t free_pid(const EventStore& s) {
  int64_t largest = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const std::string_view raw = s.str(s.pid[i]);
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), v);
    if (ec == std::errc() && end == raw.data() + raw.size()) largest = std::max(largest, v);
  }
  return largest + 1;
}

// pid and tid as the original event wrote them: a number stays a number.
void raw_id(JsonBuilder& j, std::string_view key, std::string_view raw) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(raw.data(), raw.data() + raw.size(), v);
  j.key(key);
  if (!raw.empty() && ec == std::errc() && end == raw.data() + raw.size()) j.integer(v);
  else j.string(raw);
}

std::string metadata_event(std::string_view kind, int64_t pid, int64_t tid, std::string_view name) {
  JsonBuilder j(JsonBuilder::Spacing::kCompact);
  j.begin_object().member("ph", "M").member("name", kind).member("pid", pid).member("tid", tid);
  j.key("args").begin_object().member("name", name).end_object();
  return j.end_object().take();
}

// The events on the path in path order, with the µs of the path attributed to each.
struct PathEvent {
  uint32_t row;
  double critical_us = 0;
  std::string_view bound_by;
};

std::vector<PathEvent> path_events(const CriticalPath& path) {
  std::vector<PathEvent> events;
  std::map<uint32_t, size_t> at;
  auto note = [&](uint32_t row) {
    const auto [it, fresh] = at.try_emplace(row, events.size());
    if (fresh) events.push_back({row, 0, {}});
    return it->second;
  };
  for (const CriticalPathStep& s : path.steps) {
    note(s.from_event);
    note(s.to_event);
    if (s.event < 0) continue;
    PathEvent& e = events[note(static_cast<uint32_t>(s.event))];
    e.critical_us += s.duration;
    if (e.bound_by.empty()) e.bound_by = hta::bound_by_name(s.bound_by);
  }
  return events;
}

void append_copies(const EventStore& s, const CriticalPath& path, int64_t pid, std::vector<std::string>& out) {
  std::map<std::pair<StrId, StrId>, int64_t> track_tid;  // original (pid, tid) → thread on the Critical path process
  std::vector<std::string> copies;
  for (const PathEvent& e : path_events(path)) {
    const auto key = std::make_pair(s.pid[e.row], s.tid[e.row]);
    const auto [it, fresh] = track_tid.try_emplace(key, static_cast<int64_t>(track_tid.size()) + 1);
    if (fresh) {
      const std::string label = "pid " + std::string(s.str(key.first)) + " tid " + std::string(s.str(key.second));
      out.push_back(metadata_event("thread_name", pid, it->second, label));
    }
    JsonBuilder j(JsonBuilder::Spacing::kCompact);
    j.begin_object().member("ph", "X").member("cat", "critical_path").member("name", s.name_of(e.row));
    j.member("pid", pid).member("tid", it->second).member("ts", s.ts[e.row]).member("dur", s.dur[e.row]);
    j.key("args").begin_object().member("event", static_cast<int64_t>(e.row)).member("critical_us", e.critical_us);
    j.member("bound_by", e.bound_by).member("original_cat", s.str(s.cat[e.row])).end_object();
    copies.push_back(j.end_object().take());
  }
  for (std::string& c : copies) out.push_back(std::move(c));
}

bool drawn_as_arrow(CpEdgeType t) {
  return t == CpEdgeType::kDependency || t == CpEdgeType::kKernelLaunchDelay || t == CpEdgeType::kSyncDependency;
}

// A point of the path on its original event: its start, or its end pulled 1 µs inside.
double point_ts(const EventStore& s, uint32_t row, bool start) {
  if (start) return s.ts[row];
  return s.ts[row] + s.dur[row] - std::min(1.0, s.dur[row] / 2);
}

std::string flow_event(const EventStore& s, const CriticalPathStep& step, int64_t id, bool start) {
  const uint32_t row = start ? step.from_event : step.to_event;
  JsonBuilder j(JsonBuilder::Spacing::kCompact);
  j.begin_object().member("ph", start ? "s" : "f").member("id", id);
  raw_id(j, "pid", s.str(s.pid[row]));
  raw_id(j, "tid", s.str(s.tid[row]));
  j.member("ts", point_ts(s, row, start ? step.from_start : step.to_start));
  j.member("cat", "critical_path").member("name", "critical_path");
  if (!start) j.member("bp", "e");
  j.key("args").begin_object().member("weight", step.duration).member("critical", true);
  j.member("type", hta::edge_type_name(step.type)).member("inferred", step.inferred).end_object();
  return j.end_object().take();
}

int64_t first_free_flow_id(const EventStore& s) {
  int64_t largest = 0;
  for (size_t i = 0; i < s.size(); ++i)
    if (s.flow_id[i] != kNoValue) largest = std::max(largest, s.flow_id[i]);
  return largest + 1;
}

}  // namespace

std::vector<std::string> critical_path_trace_events(const EventStore& store, const CriticalPath& path) {
  std::vector<std::string> out;
  const int64_t pid = free_pid(store);
  out.push_back(metadata_event("process_name", pid, 0, path.inferred_sync ? "Critical path (inferred GPU waits)"
                                                                           : "Critical path"));
  append_copies(store, path, pid, out);
  int64_t id = first_free_flow_id(store);
  for (const CriticalPathStep& step : path.steps) {
    if (!drawn_as_arrow(step.type) || step.from_event == step.to_event) continue;
    out.push_back(flow_event(store, step, id, true));
    out.push_back(flow_event(store, step, id, false));
    ++id;
  }
  return out;
}

bool write_critical_path_trace(std::string_view trace_json, const EventStore& store, const CriticalPath& path,
                               std::ostream& out) {
  return write_trace_with_extra_events(trace_json, critical_path_trace_events(store, path), out);
}

}  // namespace sollens
