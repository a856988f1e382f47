#include "ingest/metadata_reader.h"

#include <simdjson.h>

#include <cctype>
#include <charconv>
#include <cmath>
#include <string>

#include "ingest/json_layout.h"
#include "ingest/text_repair.h"

namespace sollens {

namespace {

int64_t int_of(simdjson::dom::element e) {
  int64_t i;
  if (!e.get_int64().get(i)) return i;
  double d;
  // A double past int64 (or nan) has no int64: casting it is undefined, so it reads as 0.
  if (!e.get_double().get(d)) return std::fabs(d) < 9.2e18 ? static_cast<int64_t>(d) : 0;
  std::string_view s;
  if (!e.get_string().get(s)) {
    // As std::stoll read it: leading blanks, then digits; the rest is ignored.
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    if (!s.empty() && s.front() == '+') s.remove_prefix(1);
    int64_t n = 0;
    const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (error == std::errc()) return n;
  }
  return kNoValue;
}

std::string string_of(simdjson::dom::element e) {
  std::string_view s;
  if (!e.get_string().get(s)) return std::string(s);
  return simdjson::minify(e);
}

DeviceProperties device_of(simdjson::dom::object o) {
  DeviceProperties d;
  for (auto [key, value] : o) {
    if (key == "id") d.id = int_of(value);
    else if (key == "name") d.name = string_of(value);
    else if (key == "totalGlobalMem") d.total_global_mem = int_of(value);
    else if (key == "computeMajor") d.compute_major = int_of(value);
    else if (key == "computeMinor") d.compute_minor = int_of(value);
    else if (key == "numSms") d.num_sms = int_of(value);
    else if (key == "warpSize") d.warp_size = int_of(value);
  }
  return d;
}

DistributedInfo distributed_of(simdjson::dom::object o) {
  DistributedInfo info;
  for (auto [key, value] : o) {
    if (key == "backend") info.backend = string_of(value);
    else if (key == "rank") info.rank = int_of(value);
    else if (key == "world_size") info.world_size = int_of(value);
    else if (key == "pg_count") info.pg_count = int_of(value);
    else if (key == "nccl_version") info.nccl_version = string_of(value);
  }
  return info;
}

}  // namespace

void read_metadata(EventStore& store, size_t object_open, size_t array_open, size_t array_close) {
  const std::string_view text = store.input.view();
  std::string doc_text(text.substr(object_open, array_open - object_open));
  doc_text += "null";
  const bool closed = array_close != static_cast<size_t>(-1);
  if (closed) {
    // Text after the top-level object (a second document, say) is not the trace's.
    const size_t object_close = json_layout::scan_to_boundary(text, array_close + 1, json_layout::npos);
    const bool trailing = object_close != json_layout::npos && text[object_close] == '}' &&
                          json_layout::skip_ws(text, object_close + 1) < text.size();
    doc_text.append(text.substr(array_close + 1, trailing ? object_close - array_close : json_layout::npos));
    if (trailing)
      store.warnings.push_back({Code::trailing_content, "the file goes on after the trace's JSON object (byte " +
                                                            std::to_string(object_close + 1) + "); that was ignored"});
  } else {
    doc_text += "}";
  }

  // The same repairs as for events (on this copy: the input stays as read).
  if (repair_invalid_utf8(doc_text.data(), doc_text.size()) +
      repair_control_characters(doc_text.data(), doc_text.size()))
    store.warnings.push_back({Code::metadata_repaired,
                              "invalid UTF-8 or raw control characters in the top-level keys "
                              "were replaced"});
  simdjson::dom::parser parser;
  simdjson::dom::object top;
  auto error = parser.parse(doc_text).get(top);
  if (error && closed) {
    // Cut short after the events: keep what precedes them.
    doc_text.assign(text.substr(object_open, array_open - object_open));
    doc_text += "null}";
    error = parser.parse(doc_text).get(top);
    if (!error)
      store.warnings.push_back({Code::metadata_truncated,
                                "the file ends inside the keys after traceEvents: it is cut "
                                "short; every event was read, the keys after them were not"});
  }
  if (error) {
    store.warnings.push_back({Code::metadata_unreadable,
                              std::string("the top-level keys around traceEvents could not be "
                                          "read: ") +
                                  simdjson::error_message(error)});
    return;
  }
  TraceMetadata& m = store.metadata;
  for (auto [key, value] : top) {
    if (key == "traceEvents") continue;
    if (key == "schemaVersion") m.schema_version = int_of(value);
    else if (key == "baseTimeNanoseconds") m.base_time_ns = int_of(value);
    else if (key == "displayTimeUnit") m.display_time_unit = string_of(value);
    else if (key == "traceName") m.trace_name = string_of(value);
    else if (key == "deviceProperties") {
      simdjson::dom::array devices;
      if (!value.get_array().get(devices))
        for (auto d : devices) {
          simdjson::dom::object o;
          if (!d.get_object().get(o)) m.devices.push_back(device_of(o));
        }
    } else if (key == "distributedInfo") {
      simdjson::dom::object o;
      if (!value.get_object().get(o)) m.distributed = distributed_of(o);
    } else {
      std::string v = string_of(value);
      if (v.size() > 200) v = v.substr(0, 200) + "...";
      m.other.emplace_back(std::string(key), std::move(v));
    }
  }
}

}  // namespace sollens
