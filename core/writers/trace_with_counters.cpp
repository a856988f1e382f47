#include "writers/trace_with_counters.h"

#include <cmath>
#include <string_view>

#include "writers/json_builder.h"
#include "writers/trace_splice.h"

namespace sollens {

namespace {

// A pid as the trace spelled it: a number where the text is one, else a string.
void write_pid(JsonBuilder& json, std::string_view pid) {
  const bool numeric = !pid.empty() && pid.size() < 19 &&
                       pid.find_first_not_of("0123456789", pid[0] == '-' ? 1 : 0) == std::string_view::npos &&
                       pid != "-";
  if (numeric) json.integer(std::stoll(std::string(pid)));
  else json.string(pid);
}

// Whole µs as integers, as HTA writes them.
void write_ts(JsonBuilder& json, double ts) {
  if (ts == std::floor(ts) && std::abs(ts) < 9e15) json.integer(static_cast<int64_t>(ts));
  else json.number(ts);
}

std::string queue_length_event(const EventStore& store, const hta::QueueLengthPoint& p) {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_object().member("ph", "C").member("name", "Queue Length");
  json.key("pid");
  write_pid(json, store.str(store.pid[p.gpu_event]));
  json.key("ts");
  write_ts(json, p.ts);
  json.member("id", p.stream);
  json.key("args").begin_object().member("Queue Length", p.queue_length).end_object();
  return json.end_object().take();
}

std::string memory_bw_event(const EventStore& store, const hta::MemoryBwPoint& p) {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_object().member("ph", "C").member("name", p.kind);
  json.key("pid");
  write_pid(json, store.str(store.pid[p.gpu_event]));
  json.key("ts");
  write_ts(json, p.ts);
  json.key("args").begin_object().member("Memcpy BW", p.memory_bw_gbps).end_object();
  return json.end_object().take();
}

}  // namespace

std::vector<std::string> counter_events_json(const EventStore& store, const hta::CounterSeries& series) {
  std::vector<std::string> events;
  events.reserve(series.queue_length.size() + series.memory_bw.size());
  for (const hta::QueueLengthPoint& p : series.queue_length) events.push_back(queue_length_event(store, p));
  for (const hta::MemoryBwPoint& p : series.memory_bw) events.push_back(memory_bw_event(store, p));
  return events;
}

bool write_trace_with_counters(const EventStore& store, const hta::CounterSeries& series, std::ostream& out) {
  return write_trace_with_extra_events(store.input.view(), counter_events_json(store, series), out);
}

}  // namespace sollens
