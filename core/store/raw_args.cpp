#include "store/raw_args.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdlib>

#include "base/json_text.h"

namespace sollens {

namespace od = simdjson::ondemand;
using simdjson::error_code;
using simdjson::SUCCESS;

namespace {

// `json` (a range of store.input) as simdjson wants it: the input keeps
// PaddedBuffer::kPadding readable bytes after its end, so no copy is needed.
simdjson::padded_string_view padded_input_view(const EventStore& store, std::string_view json) {
  const char* end_of_buffer = store.input.data() + store.input.size() + PaddedBuffer::kPadding;
  return simdjson::padded_string_view(json.data(), json.size(), static_cast<size_t>(end_of_buffer - json.data()));
}

int key_index(std::span<const std::string_view> keys, std::string_view key) {
  for (size_t k = 0; k < keys.size(); ++k)
    if (keys[k] == key) return static_cast<int>(k);
  return -1;
}

PyValue number_value(od::value& v) {
  const std::string_view token = trim_json_token(v.raw_json_token());
  if (token.find_first_of(".eE") != std::string_view::npos)
    return PyValue::real(std::strtod(std::string(token).c_str(), nullptr));
  int64_t i;
  if (token == "-0") return PyValue::integer(0);
  if (v.get_int64().get(i) == SUCCESS) return PyValue::integer(i);
  return PyValue::big_integer(token);
}

error_code to_python(od::value& v, PyValue& out);

error_code array_value(od::value& v, PyValue& out) {
  od::array array;
  if (auto e = v.get_array().get(array)) return e;
  out = PyValue::list({});
  for (auto element : array) {
    if (auto e = element.error()) return e;
    if (auto e = to_python(element.value_unsafe(), out.items.emplace_back())) return e;
  }
  return SUCCESS;
}

error_code object_value(od::value& v, PyValue& out) {
  od::object object;
  if (auto e = v.get_object().get(object)) return e;
  out = PyValue::dict({});
  for (auto field_result : object) {
    if (auto e = field_result.error()) return e;
    od::field& field = field_result.value_unsafe();  // a copy would stall on store forwarding
    std::string_view key;
    if (auto e = field.unescaped_key(false).get(key)) return e;
    PyValue value;
    if (auto e = to_python(field.value(), value)) return e;
    // A repeated key keeps its first place and its last value, as in a Python dict.
    std::vector<PyValue>& entries = out.items;
    size_t at = 0;
    while (at < entries.size() && entries[at].s != key) at += 2;
    if (at < entries.size()) {
      entries[at + 1] = std::move(value);
    } else {
      entries.push_back(PyValue::str(key));
      entries.push_back(std::move(value));
    }
  }
  return SUCCESS;
}

error_code to_python(od::value& v, PyValue& out) {
  od::json_type type;
  if (auto e = v.type().get(type)) return e;
  switch (type) {
    case od::json_type::array: return array_value(v, out);
    case od::json_type::object: return object_value(v, out);
    case od::json_type::number: out = number_value(v); return SUCCESS;
    case od::json_type::string: {
      std::string_view s;
      if (auto e = v.get_string().get(s)) return e;
      out = PyValue::str(s);
      return SUCCESS;
    }
    case od::json_type::boolean: {
      bool b;
      if (auto e = v.get_bool().get(b)) return e;
      out = PyValue::boolean(b);
      return SUCCESS;
    }
    case od::json_type::null: out = PyValue::none(); return SUCCESS;
    default: return simdjson::INCORRECT_TYPE;
  }
}

}  // namespace

struct ArgsReader::Impl {
  const EventStore& store;
  od::parser parser{};
  explicit Impl(const EventStore& s) : store(s) {}

  // Calls visit(index of the key, value) for each member whose key is wanted; false
  // when the args are missing, malformed or not an object, or visit fails.
  template <typename Visit>
  bool for_each_wanted(uint32_t event, std::span<const std::string_view> keys, Visit visit) {
    if (event >= store.size() || !store.has_args(event)) return false;
    od::document doc;
    od::object object;
    if (parser.iterate(padded_input_view(store, store.args_json(event))).get(doc) || doc.get_object().get(object))
      return false;
    for (auto field_result : object) {
      if (field_result.error()) return false;
      od::field& field = field_result.value_unsafe();  // a copy would stall on store forwarding
      // Keys are plain text nearly always: compare the raw key, and unescape (a copy)
      // only a key with escapes that did not match.
      const std::string_view raw_key = field.escaped_key();
      int k = key_index(keys, raw_key);
      if (k < 0 && raw_key.find('\\') != std::string_view::npos) {
        std::string_view key;
        if (field.unescaped_key(false).get(key)) return false;
        k = key_index(keys, key);
      }
      if (k >= 0 && visit(static_cast<size_t>(k), field.value()) != SUCCESS) return false;
    }
    return true;
  }
};

ArgsReader::ArgsReader(const EventStore& store) : impl_(new Impl(store)) {}
ArgsReader::~ArgsReader() = default;
ArgsReader::ArgsReader(ArgsReader&&) noexcept = default;
ArgsReader& ArgsReader::operator=(ArgsReader&&) noexcept = default;

bool ArgsReader::find_raw(uint32_t event, std::span<const std::string_view> keys, std::span<std::string_view> raw) {
  std::fill(raw.begin(), raw.end(), std::string_view());
  const bool ok = impl_->for_each_wanted(event, keys, [&](size_t k, od::value& v) {
    std::string_view text;
    if (auto e = v.raw_json().get(text)) return e;
    raw[k] = trim_json_token(text);
    return SUCCESS;
  });
  if (!ok) std::fill(raw.begin(), raw.end(), std::string_view());
  return ok;
}

bool ArgsReader::read(uint32_t event, std::span<const std::string_view> keys, std::span<PyValue> values) {
  std::fill(values.begin(), values.end(), PyValue::none());
  const bool ok = impl_->for_each_wanted(event, keys, [&](size_t k, od::value& v) { return to_python(v, values[k]); });
  if (!ok) std::fill(values.begin(), values.end(), PyValue::none());
  return ok;
}

namespace {

void append_length_prefixed(std::string& key, std::string_view text) {
  const auto n = static_cast<uint32_t>(text.size());
  key.append(reinterpret_cast<const char*>(&n), sizeof n);
  key.append(text);
}

}  // namespace

ArgsTextIndex::ArgsTextIndex(const EventStore& store, std::vector<std::string_view> keys)
    : store_(store), keys_(std::move(keys)), reader_(store), raw_(keys_.size()) {}

uint32_t ArgsTextIndex::intern(uint32_t event) {
  // One key per distinct content: "n" no args, "s" + the wanted texts, or "r" + the
  // whole text when it is not an object (its values are then all None).
  key_.clear();
  if (!store_.has_args(event)) {
    key_ = "n";
  } else if (reader_.find_raw(event, keys_, raw_)) {
    key_ = "s";
    for (std::string_view text : raw_) append_length_prefixed(key_, text);
  } else {
    key_ = "r";
    key_ += store_.args_json(event);
  }
  return index_.try_emplace(key_, size()).first->second;
}

}  // namespace sollens
