#pragma once
// Decodes one traceEvents element (a simdjson on-demand value) into a store row.
#include <simdjson.h>

#include <cstddef>
#include <vector>

#include "store/event_store.h"

namespace sollens {

// What ingest counts along the way, turned into warnings at the end.
struct IngestCounters {
  size_t non_object = 0;
  size_t empty_objects = 0;
  size_t empty_elements = 0;
  size_t bad_numbers = 0;
  size_t huge_durations = 0;
  size_t negative_durations = 0;
  size_t utf8_repairs = 0;
  size_t control_repairs = 0;
  size_t truncated_at = static_cast<size_t>(-1);
  bool missing_close_bracket = false;
};

class EventDecoder {
 public:
  // Rows go to `store`; `input` is the buffer being parsed (args offsets point into it).
  // `copy_strings`: intern copies of the input's strings, for an input that is not kept.
  EventDecoder(EventStore& store, const PaddedBuffer& input, IngestCounters& counters, bool copy_strings = false);
  simdjson::error_code decode(simdjson::ondemand::value& value,
                              simdjson::ondemand::document& doc);

 private:
  struct Row;
  simdjson::error_code decode_args(simdjson::ondemand::value& value,
                                   simdjson::ondemand::document& doc, Row& row);
  // `last`: the id this field got in the previous event, reused without hashing when
  // the text is the same (cat, pid and tid repeat in most consecutive events).
  simdjson::error_code intern_value(simdjson::ondemand::value& value, StrId& out, StrId* last = nullptr);
  simdjson::error_code read_time(simdjson::ondemand::value& value, double& out);
  Category category_of(StrId cat);
  void push(Row& row);

  EventStore& store_;
  const PaddedBuffer& input_;
  IngestCounters& counters_;
  bool copy_strings_;
  std::vector<uint8_t> category_cache_;  // by StrId; 0xff = not computed
  static constexpr StrId kNoLast = static_cast<StrId>(-1);
  StrId last_cat_ = kNoLast, last_pid_ = kNoLast, last_tid_ = kNoLast, last_name_ = kNoLast;
};

}  // namespace sollens
