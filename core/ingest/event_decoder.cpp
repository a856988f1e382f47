#include "ingest/event_decoder.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <string>

#include "base/json_text.h"
#include "base/same_bytes.h"

namespace sollens {

using simdjson::error_code;
using simdjson::SUCCESS;
namespace od = simdjson::ondemand;

namespace {

constexpr double kSevenDaysUs = 7.0 * 24 * 3600 * 1e6;
// The largest |ts| whose nanoseconds fit in an int64 (EventStore::ts_ns): the year 2262.
constexpr double kLargestTsUs = 9.2e15;

// Integer-valued fields arrive as numbers (sometimes above INT64_MAX), strings or
// null; anything unusable reads as "absent".
int64_t read_integer(od::value& v) {
  od::json_type type;
  if (v.type().get(type)) return kNoValue;
  if (type == od::json_type::number) {
    int64_t i;
    if (!v.get_int64().get(i)) return i;
    uint64_t u;
    if (!v.get_uint64().get(u)) return static_cast<int64_t>(u);  // wraps; ids only compare
    double d;
    if (!v.get_double().get(d) && d > -9.2e18 && d < 9.2e18) return static_cast<int64_t>(d);
    return kNoValue;
  }
  if (type == od::json_type::string) {
    std::string_view s;
    if (v.get_string().get(s)) return kNoValue;
    int base = 10;
    if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
      s.remove_prefix(2);
      base = 16;
    }
    int64_t i;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), i, base);
    if (ec == std::errc() && ptr == s.data() + s.size()) return i;
    return static_cast<int64_t>(hash_bytes(s) >> 1);  // non-numeric id: still comparable
  }
  return kNoValue;
}

}  // namespace

// A store row (store/event_columns.h) and what decoding needs besides.
struct EventDecoder::Row : EventRow {
  StrId metadata_value = kEmptyStr;  // args.name / labels / sort_index of "M" events
  bool any_field = false;
};

EventDecoder::EventDecoder(EventStore& store, const PaddedBuffer& input, IngestCounters& counters,
                           bool copy_strings)
    : store_(store), input_(input), counters_(counters), copy_strings_(copy_strings) {}

error_code EventDecoder::intern_value(od::value& v, StrId& out, StrId* last) {
  std::string_view token = trim_json_token(v.raw_json_token());
  const bool quoted = !token.empty() && token.front() == '"';
  // A number, true/false/null keeps its text; a string without escapes is its content.
  const std::string_view text = quoted ? token.substr(1, token.size() >= 2 ? token.size() - 2 : 0) : token;
  // Escaped text is compared only after unescaping (its raw form could equal another
  // string's unescaped one), so it bypasses the cache.
  const bool escaped = quoted && std::memchr(text.data(), '\\', text.size());
  if (!escaped && last && *last != kNoLast && same_bytes(store_.strings.view(*last), text)) {
    out = *last;
    return SUCCESS;
  }
  if (escaped) {
    std::string_view unescaped;
    if (auto e = v.get_string().get(unescaped)) return e;
    out = store_.strings.intern(unescaped);
  } else {
    // Points into the input buffer, unless the input is not kept.
    out = copy_strings_ ? store_.strings.intern(text) : store_.strings.intern_stable(text);
  }
  if (last) *last = out;
  return SUCCESS;
}

error_code EventDecoder::read_time(od::value& v, double& out) {
  if (!v.get_double().get(out)) return SUCCESS;
  std::string_view s;
  if (!v.get_string().get(s)) {
    std::string copy(s);
    char* end = nullptr;
    double d = std::strtod(copy.c_str(), &end);
    // strtod also reads "NaN" and "Infinity", which no time can be.
    if (end && end != copy.c_str() && *end == '\0' && std::isfinite(d)) {
      out = d;
      return SUCCESS;
    }
  }
  ++counters_.bad_numbers;
  out = 0;
  return SUCCESS;
}

Category EventDecoder::category_of(StrId cat) {
  if (cat >= category_cache_.size()) category_cache_.resize(cat + 64, 0xff);
  if (category_cache_[cat] == 0xff)
    category_cache_[cat] = static_cast<uint8_t>(category_from_string(store_.str(cat)));
  return static_cast<Category>(category_cache_[cat]);
}

error_code EventDecoder::decode_args(od::value& value, od::document& doc, Row& row) {
  od::json_type type;
  if (auto e = value.type().get(type)) return e;
  if (type != od::json_type::object) return SUCCESS;  // skipped by the caller's loop
  const char* begin = value.raw_json_token().data();
  od::object args;
  if (auto e = value.get_object().get(args)) return e;
  row.has_args_object = 1;
  for (auto field_result : args) {
    if (auto e = field_result.error()) return e;
    // By reference: copies of the field and its value cost more than reading them.
    od::field& field = field_result.value_unsafe();
    const std::string_view key = field.escaped_key();
    od::value& v = field.value();
    switch (key.size()) {
      case 4:
        if (same_bytes(key, "name")) {
          od::json_type t;
          if (!v.type().get(t) && t == od::json_type::string) {
            if (auto e = intern_value(v, row.metadata_value)) return e;
          }
        }
        break;
      case 6:
        if (same_bytes(key, "stream")) row.stream = read_integer(v);
        else if (same_bytes(key, "device")) row.device = read_integer(v);
        else if (same_bytes(key, "labels")) {
          if (auto e = intern_value(v, row.metadata_value)) return e;
        }
        break;
      case 9:
        if (same_bytes(key, "Python id")) row.python_id = read_integer(v);
        break;
      case 10:
        if (same_bytes(key, "sort_index")) {
          if (auto e = intern_value(v, row.metadata_value)) return e;
        }
        break;
      case 11:
        if (same_bytes(key, "correlation")) row.correlation = read_integer(v);
        else if (same_bytes(key, "External id") || same_bytes(key, "external id")) row.external_id = read_integer(v);
        break;
      case 15:
        if (same_bytes(key, "Sequence number")) row.sequence_number = read_integer(v);
        break;
      case 16:
        if (same_bytes(key, "Python parent id")) row.python_parent_id = read_integer(v);
        break;
      default:
        break;
    }
  }
  // The object is consumed: the next token follows its closing brace.
  const char* next = nullptr;
  if (auto e = doc.current_location().get(next)) return e;
  const char* end = next;
  while (end > begin && end[-1] != '}') --end;
  row.args_offset = static_cast<uint64_t>(begin - input_.data());
  row.args_length = static_cast<uint32_t>(end - begin);
  return SUCCESS;
}

error_code EventDecoder::decode(od::value& value, od::document& doc) {
  od::json_type type;
  if (auto e = value.type().get(type)) return e;
  Row row;
  if (type != od::json_type::object) {
    ++counters_.non_object;
    push(row);  // keeps UIDs aligned with TraceLens's enumeration of traceEvents
    return SUCCESS;
  }
  od::object object;
  if (auto e = value.get_object().get(object)) return e;
  for (auto field_result : object) {
    if (auto e = field_result.error()) return e;
    od::field& field = field_result.value_unsafe();  // by reference, as in decode_args
    const std::string_view key = field.escaped_key();
    od::value& v = field.value();
    row.any_field = true;
    switch (key.size()) {
      case 2:
        if (same_bytes(key, "ph")) {
          std::string_view ph;
          if (!v.get_string().get(ph)) row.phase = phase_from_string(ph);
          else row.phase = Phase::kOther;
        } else if (same_bytes(key, "ts")) {
          if (auto e = read_time(v, row.ts)) return e;
          if (!(std::fabs(row.ts) <= kLargestTsUs)) {
            ++counters_.bad_numbers;
            row.ts = 0;
          }
        } else if (same_bytes(key, "id")) {
          row.flow_id = read_integer(v);
        }
        break;
      case 3:
        if (same_bytes(key, "cat")) {
          if (auto e = intern_value(v, row.cat, &last_cat_)) return e;
        } else if (same_bytes(key, "pid")) {
          if (auto e = intern_value(v, row.pid, &last_pid_)) return e;
        } else if (same_bytes(key, "tid")) {
          if (auto e = intern_value(v, row.tid, &last_tid_)) return e;
        } else if (same_bytes(key, "dur")) {
          if (auto e = read_time(v, row.dur)) return e;
        }
        break;
      case 4:
        if (same_bytes(key, "name")) {
          if (auto e = intern_value(v, row.name, &last_name_)) return e;
        } else if (same_bytes(key, "args")) {
          if (auto e = decode_args(v, doc, row)) return e;
        }
        break;
      default:
        break;
    }
  }
  if (!row.any_field) ++counters_.empty_objects;
  push(row);
  return SUCCESS;
}

void EventDecoder::push(Row& row) {
  row.category = category_of(row.cat);
  if (row.dur > kSevenDaysUs) ++counters_.huge_durations;
  if (row.dur < 0) ++counters_.negative_durations;
  // Python frames are most of a with_stack trace and their args hold only ids.
  if (row.category == Category::kPythonFunction || row.phase == Phase::kMetadata) {
    row.args_offset = 0;
    row.args_length = 0;
  }
  store_.push_row(row);
  if (row.phase == Phase::kMetadata)
    store_.names.push_back({store_.size() - 1, row.name, row.pid, row.tid, row.metadata_value});
}

}  // namespace sollens
