#pragma once
// Reading an event's raw args JSON, shared by the analyses that parse args lazily
// (op shapes, collective metadata): a simdjson view into the store's padded input,
// and the Python repr TraceLens's sheets show for a JSON value.
#include <simdjson.h>

#include <string>
#include <string_view>

#include "store/event_store.h"

namespace sollens {

// `json` (a range of store.input) as simdjson wants it: the input keeps
// PaddedBuffer::kPadding readable bytes after its end, so no copy is needed.
simdjson::padded_string_view padded_input_view(const EventStore& store, std::string_view json);

// A raw JSON token without the whitespace simdjson leaves after it.
std::string_view trim_json_token(std::string_view token);

// Appends repr(list_to_tuple(v)) when lists_as_tuples (lists, recursively, become
// tuples; list_to_tuple does not descend into dicts, so lists there stay lists), or
// repr(v) otherwise. Numbers read as Python's json reads them: ints of any size,
// "-0" as 0, anything with . e or E as a float.
simdjson::error_code append_python_repr(simdjson::ondemand::value v, std::string& out, bool lists_as_tuples);

}  // namespace sollens
