#pragma once
// The columnar event store: one row per element of traceEvents, in file order, so
// that a row index is the event's UID exactly as TraceLens numbers it. Strings are
// interned; the args keys later analyses link on are columns, and the raw args JSON
// of the events that carry shapes, grids or collective fields is kept as a byte
// range of the input, parsed only when an analysis asks for it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "store/categories.h"
#include "store/event_columns.h"
#include "store/padded_buffer.h"
#include "store/string_pool.h"

namespace sollens {

struct DeviceProperties {
  int64_t id = kNoValue;
  std::string name;
  int64_t total_global_mem = kNoValue;
  int64_t compute_major = kNoValue;
  int64_t compute_minor = kNoValue;
  int64_t num_sms = kNoValue;
  int64_t warp_size = kNoValue;
};

struct DistributedInfo {
  std::string backend;
  int64_t rank = kNoValue;
  int64_t world_size = kNoValue;
  int64_t pg_count = kNoValue;
  std::string nccl_version;
};

// Top-level keys other than traceEvents.
struct TraceMetadata {
  bool top_level_array = false;  // legacy form: the file is the events array
  bool has_trace_events_key = false;
  bool execution_trace = false;  // a PyTorch Execution Trace (nodes, no events)
  int64_t schema_version = kNoValue;
  int64_t base_time_ns = kNoValue;
  std::string display_time_unit;
  std::string trace_name;
  std::vector<DeviceProperties> devices;
  std::optional<DistributedInfo> distributed;
  // Other scalar keys (cuda_runtime_version, roctracer_version, with_stack, ...), as JSON text.
  std::vector<std::pair<std::string, std::string>> other;
};

// process_name / thread_name / *_sort_index / process_labels from "M" events.
struct NameRecord {
  size_t event;  // row of the M event
  StrId kind;  // the M event's name, e.g. "thread_name"
  StrId pid;
  StrId tid;
  StrId value;  // args.name / args.labels / args.sort_index as text
};

class EventStore {
 public:
  size_t size() const { return phase.size(); }

  std::string_view name_of(size_t i) const { return strings.view(name[i]); }
  std::string_view str(StrId id) const { return strings.view(id); }
  double t_end(size_t i) const { return ts[i] + dur[i]; }  // TraceLens: ts + dur in doubles
  // Exact nanoseconds of ts (Kineto writes at most three decimals of µs).
  int64_t ts_ns(size_t i) const;
  bool has_args(size_t i) const { return args_length[i] != 0; }
  std::string_view args_json(size_t i) const {
    return {input.data() + args_offset[i], args_length[i]};
  }

  void reserve(size_t n);
  size_t capacity() const { return phase.capacity(); }
  void truncate(size_t n);  // drops rows [n, size)
  void shrink_to_fit();     // each column's capacity down to its size
  size_t spare_column_bytes() const;  // the columns' room reserved and not used
  // Moves every row of `part` to the end of this store; `remap` maps part's string ids
  // to this store's. Column by column, each freed in `part` once copied, so that the
  // two never hold every column twice.
  void append_rows(EventStore&& part, const std::vector<StrId>& remap);
  void push_row(const EventRow& row) {
#define SOLLENS_PUSH_FIELD(type, column, absent) column.push_back(row.column);
    SOLLENS_EVENT_COLUMNS(SOLLENS_PUSH_FIELD, SOLLENS_PUSH_FIELD)
#undef SOLLENS_PUSH_FIELD
  }
  size_t heap_bytes() const;

  // Columns (one entry per event), declared in store/event_columns.h.
#define SOLLENS_COLUMN_MEMBER(type, column, absent) ColumnOf<type> column;
  SOLLENS_EVENT_COLUMNS(SOLLENS_COLUMN_MEMBER, SOLLENS_COLUMN_MEMBER)
#undef SOLLENS_COLUMN_MEMBER

  StringPool strings;
  TraceMetadata metadata;
  std::vector<NameRecord> names;
  std::vector<Diagnostic> warnings;  // what the load found wrong (codes in base/diagnostics.def)
  size_t input_bytes = 0;       // bytes of JSON read (after decompression)
  size_t compressed_bytes = 0;  // bytes of the file when it was gzip, else 0
  unsigned parse_threads = 1;   // 2 when the events array was parsed in two halves
  double inflate_ms = 0;        // wall time of the gzip inflate
  bool inflated_beside_parse = false;  // on a second thread while the events were parsed
  PaddedBuffer input;  // the JSON text; interned strings and args point into it
};

}  // namespace sollens
