#include "analyses/perf/args_cache.h"

#include <simdjson.h>

namespace sollens::perf {

namespace {

void append_field(std::string& key, std::string_view v) {
  const auto n = static_cast<uint32_t>(v.size());
  key.append(reinterpret_cast<const char*>(&n), sizeof n);
  key.append(v);
}

}  // namespace

bool scan_model_args(const EventStore& store, uint32_t event, RawModelArgs& out) {
  out = {};
  // simdjson's On-Demand API indexes the object with SIMD and hands out each wanted
  // value's raw text; the store's input buffer is padded, so reading past the args
  // object is safe.
  thread_local simdjson::ondemand::parser parser;
  const std::string_view json = store.args_json(event);
  const size_t capacity = static_cast<size_t>(store.input.data() + store.input.capacity() - json.data());
  simdjson::ondemand::document doc;
  simdjson::ondemand::object object;
  if (parser.iterate(json.data(), json.size(), capacity).get(doc) || doc.get_object().get(object)) return false;
  for (auto field : object) {
    std::string_view key, raw;
    if (field.escaped_key().get(key)) return false;
    std::string_view* slot = key == "Input Dims"        ? &out.dims
                             : key == "Input type"      ? &out.types
                             : key == "Input Strides"   ? &out.strides
                             : key == "Concrete Inputs" ? &out.concrete
                             : key == "Output type"     ? &out.output_type
                                                        : nullptr;
    if (!slot) continue;
    if (field.value().raw_json().get(raw)) return false;
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t'))
      raw.remove_suffix(1);
    *slot = raw;
  }
  return true;
}

uint32_t ArgsCache::intern(uint32_t event) {
  if (event_ids_.empty()) event_ids_.assign(store_.size(), -1);
  if (event_ids_[event] >= 0) return static_cast<uint32_t>(event_ids_[event]);
  key_.clear();
  RawModelArgs raw;
  if (!store_.has_args(event)) {
    key_ = "n";  // no args: every model input is None
  } else if (scan_model_args(store_, event, raw)) {
    key_ = "s";
    for (std::string_view v : {raw.dims, raw.types, raw.strides, raw.concrete, raw.output_type})
      append_field(key_, v);
  } else {
    key_ = "r";
    key_ += store_.args_json(event);
  }
  if (auto it = index_.find(std::string_view(key_)); it != index_.end()) {
    event_ids_[event] = static_cast<int32_t>(it->second);
    return it->second;
  }
  const auto id = static_cast<uint32_t>(entries_.size());
  event_ids_[event] = static_cast<int32_t>(id);
  index_.emplace(key_, id);
  ArgsEntry& e = entries_.emplace_back();
  e.args = read_event_args(store_, event);
  const PyValue* fields[] = {&e.args.dims, &e.args.types, &e.args.strides, &e.args.concrete};
  std::string display;
  for (size_t k = 0; k < 4; ++k) {
    if (fields[k]->is_none()) {
      display += "\x01None";  // not a printed value
    } else {
      e.tuple_text[k] = str(fields[k]->as_tuple());
      e.list_text[k] = repr(*fields[k]);
      display += *e.tuple_text[k];
    }
    display += '\x1f';
  }
  e.display_id = display_index_.try_emplace(std::move(display), static_cast<uint32_t>(display_index_.size()))
                     .first->second;
  return id;
}

}  // namespace sollens::perf
