#include "analyses/perf/args_cache.h"

namespace sollens::perf {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Index just past the string starting at json[i] == '"', or npos.
size_t skip_string(std::string_view json, size_t i) {
  for (++i; i < json.size(); ++i) {
    if (json[i] == '\\') ++i;
    else if (json[i] == '"') return i + 1;
  }
  return std::string_view::npos;
}

// Index just past the JSON value starting at json[i], or npos.
size_t skip_value(std::string_view json, size_t i) {
  if (i >= json.size()) return std::string_view::npos;
  if (json[i] == '"') return skip_string(json, i);
  int depth = 0;
  for (; i < json.size(); ++i) {
    const char c = json[i];
    if (c == '"') {
      i = skip_string(json, i);
      if (i == std::string_view::npos) return i;
      --i;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (depth == 0) return i;  // the end of the enclosing object
      if (--depth == 0) return i + 1;
    } else if (c == ',' && depth == 0) {
      return i;
    }
  }
  return depth == 0 ? i : std::string_view::npos;
}

void append_field(std::string& key, std::string_view v) {
  const auto n = static_cast<uint32_t>(v.size());
  key.append(reinterpret_cast<const char*>(&n), sizeof n);
  key.append(v);
}

}  // namespace

bool scan_model_args(std::string_view json, RawModelArgs& out) {
  out = {};
  size_t i = 0;
  auto ws = [&] {
    while (i < json.size() && is_space(json[i])) ++i;
  };
  ws();
  if (i >= json.size() || json[i] != '{') return false;
  ++i;
  for (;;) {
    ws();
    if (i < json.size() && json[i] == '}') return true;
    if (i >= json.size() || json[i] != '"') return false;
    const size_t key_end = skip_string(json, i);
    if (key_end == std::string_view::npos) return false;
    const std::string_view key = json.substr(i + 1, key_end - i - 2);
    i = key_end;
    ws();
    if (i >= json.size() || json[i] != ':') return false;
    ++i;
    ws();
    const size_t value_end = skip_value(json, i);
    if (value_end == std::string_view::npos) return false;
    std::string_view value = json.substr(i, value_end - i);
    while (!value.empty() && is_space(value.back())) value.remove_suffix(1);
    if (key == "Input Dims") out.dims = value;
    else if (key == "Input type") out.types = value;
    else if (key == "Input Strides") out.strides = value;
    else if (key == "Concrete Inputs") out.concrete = value;
    else if (key == "Output type") out.output_type = value;
    i = value_end;
    ws();
    if (i < json.size() && json[i] == ',') {
      ++i;
      continue;
    }
    return i < json.size() && json[i] == '}';
  }
}

uint32_t ArgsCache::intern(uint32_t event) {
  key_.clear();
  RawModelArgs raw;
  if (!store_.has_args(event)) {
    key_ = "n";  // no args: every model input is None
  } else if (scan_model_args(store_.args_json(event), raw)) {
    key_ = "s";
    for (std::string_view v : {raw.dims, raw.types, raw.strides, raw.concrete, raw.output_type})
      append_field(key_, v);
  } else {
    key_ = "r";
    key_ += store_.args_json(event);
  }
  if (auto it = index_.find(std::string_view(key_)); it != index_.end()) return it->second;
  const auto id = static_cast<uint32_t>(entries_.size());
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
