#pragma once
// What the readers fed in chunks are checked against: the store load_trace makes of the
// whole text with compact input, compared column by column, string by string.
#include <string>

#include "ingest/trace_reader.h"
#include "ingest_test_util.h"
#include "store/event_store.h"

namespace sollens::test {

// Empty when the two stores hold the same events, strings, args, metadata and
// warnings; else the first difference.
inline std::string store_difference(const EventStore& a, const EventStore& b) {
  if (a.size() != b.size()) return "rows " + std::to_string(a.size()) + " != " + std::to_string(b.size());
#define SOLLENS_SAME_COLUMN(type, column, absent) \
  if (a.column != b.column) return "column " #column;
  SOLLENS_EVENT_COLUMNS(SOLLENS_SAME_COLUMN, SOLLENS_SAME_COLUMN)
#undef SOLLENS_SAME_COLUMN
  if (a.strings.size() != b.strings.size()) return "string pool size";
  for (StrId id = 0; id < a.strings.size(); ++id)
    if (a.str(id) != b.str(id)) return "string " + std::to_string(id) + " '" + std::string(a.str(id)) + "'";
  for (size_t i = 0; i < a.size(); ++i)
    if (a.args_json(i) != b.args_json(i)) return "args of row " + std::to_string(i);
  if (a.input.view() != b.input.view()) return "kept args text";
  if (a.input_bytes != b.input_bytes) return "input_bytes";
  if (a.names.size() != b.names.size()) return "name records";
  for (size_t i = 0; i < a.names.size(); ++i)
    if (a.names[i].event != b.names[i].event || a.names[i].value != b.names[i].value) return "name record";
  const TraceMetadata &m = a.metadata, &n = b.metadata;
  if (m.top_level_array != n.top_level_array || m.has_trace_events_key != n.has_trace_events_key ||
      m.execution_trace != n.execution_trace || m.schema_version != n.schema_version ||
      m.base_time_ns != n.base_time_ns || m.display_time_unit != n.display_time_unit ||
      m.trace_name != n.trace_name || m.devices.size() != n.devices.size() ||
      m.distributed.has_value() != n.distributed.has_value() || m.other != n.other)
    return "metadata";
  for (size_t i = 0; i < m.devices.size(); ++i)
    if (m.devices[i].name != n.devices[i].name) return "device name";
  if (a.warnings.size() != b.warnings.size()) return "warnings: " + warning_list(a) + " | " + warning_list(b);
  for (size_t i = 0; i < a.warnings.size(); ++i)
    if (a.warnings[i].code != b.warnings[i].code || a.warnings[i].message != b.warnings[i].message)
      return "warning " + std::string(code_id(a.warnings[i].code)) + ": " + a.warnings[i].message + " | " + b.warnings[i].message;
  return "";
}

inline IngestOptions compact(size_t window) {
  IngestOptions options;
  options.window_bytes = window;
  options.compact_input = true;
  return options;
}

}  // namespace sollens::test
