#include "analyses/ops/op_args.h"

#include <simdjson.h>

#include <cstdlib>
#include <string>
#include <unordered_map>

#include "writers/number_format.h"
#include "writers/python_repr.h"

namespace sollens {

namespace od = simdjson::ondemand;
using simdjson::error_code;
using simdjson::SUCCESS;

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\r' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

void append_number(std::string& out, std::string_view token) {
  if (token.find_first_of(".eE") != std::string_view::npos) {
    out += format_python_float(std::strtod(std::string(token).c_str(), nullptr));
    return;
  }
  // JSON integers are Python ints of any size; "-0" reads as 0.
  if (token == "-0") token = "0";
  out += token;
}

// repr(list_to_tuple(value)): lists (recursively) become tuples; dict contents are
// left as they are (list_to_tuple does not descend into dicts), so lists there stay lists.
error_code append_repr(od::value v, std::string& out, bool lists_as_tuples) {
  od::json_type type;
  if (auto e = v.type().get(type)) return e;
  switch (type) {
    case od::json_type::array: {
      od::array array;
      if (auto e = v.get_array().get(array)) return e;
      PythonReprBuilder b(lists_as_tuples ? PythonReprBuilder::Kind::kTuple
                                          : PythonReprBuilder::Kind::kList);
      for (auto element : array) {
        od::value item;
        if (auto e = std::move(element).get(item)) return e;
        if (auto e = append_repr(item, b.element(), lists_as_tuples)) return e;
      }
      out += b.finish();
      return SUCCESS;
    }
    case od::json_type::object: {
      od::object object;
      if (auto e = v.get_object().get(object)) return e;
      PythonReprBuilder b(PythonReprBuilder::Kind::kDict);
      for (auto field_result : object) {
        od::field field;
        if (auto e = std::move(field_result).get(field)) return e;
        std::string_view key;
        if (auto e = field.unescaped_key(false).get(key)) return e;
        append_python_str_repr(b.key(), key);
        if (auto e = append_repr(field.value(), b.value(), false)) return e;
      }
      out += b.finish();
      return SUCCESS;
    }
    case od::json_type::number:
      append_number(out, trim(v.raw_json_token()));
      return SUCCESS;
    case od::json_type::string: {
      std::string_view s;
      if (auto e = v.get_string().get(s)) return e;
      append_python_str_repr(out, s);
      return SUCCESS;
    }
    case od::json_type::boolean: {
      bool b;
      if (auto e = v.get_bool().get(b)) return e;
      out += b ? "True" : "False";
      return SUCCESS;
    }
    case od::json_type::null:
      out += "None";
      return SUCCESS;
    default:
      return simdjson::INCORRECT_TYPE;
  }
}

// The cell for one arg: None for null, a top-level string as is, else the repr.
error_code read_cell(od::value v, std::optional<std::string>& cell) {
  od::json_type type;
  if (auto e = v.type().get(type)) return e;
  if (type == od::json_type::null) {
    cell.reset();
    return SUCCESS;
  }
  std::string text;
  if (type == od::json_type::string) {
    std::string_view s;
    if (auto e = v.get_string().get(s)) return e;
    text = s;
  } else if (auto e = append_repr(v, text, true)) {
    return e;
  }
  cell = std::move(text);
  return SUCCESS;
}

}  // namespace

struct OpArgsReader::Impl {
  const EventStore& store;
  od::parser parser{};
  od::parser value_parser{};  // for a list value seen for the first time
  // Rendered cells by the raw JSON text of their list value: ops repeat the same
  // shapes and types, and rendering is most of the cost of reading args.
  std::unordered_map<std::string_view, std::optional<std::string>> list_cells;
  explicit Impl(const EventStore& s) : store(s) {}

  // The store's input keeps PaddedBuffer::kPadding readable bytes after its end, so
  // any view into it is padded for simdjson.
  simdjson::padded_string_view padded(std::string_view json) const {
    const char* end_of_buffer = store.input.data() + store.input.size() + PaddedBuffer::kPadding;
    return simdjson::padded_string_view(json.data(), json.size(), static_cast<size_t>(end_of_buffer - json.data()));
  }

  error_code read_list_cell(od::value v, std::optional<std::string>& cell) {
    std::string_view raw;
    if (auto e = v.raw_json().get(raw)) return e;
    raw = trim(raw);
    if (auto it = list_cells.find(raw); it != list_cells.end()) {
      cell = it->second;
      return SUCCESS;
    }
    od::document doc;
    if (auto e = value_parser.iterate(padded(raw)).get(doc)) return e;
    od::value root;
    if (auto e = doc.get_value().get(root)) return e;
    if (auto e = read_cell(root, cell)) return e;
    list_cells.emplace(raw, cell);
    return SUCCESS;
  }
};

OpArgsReader::OpArgsReader(const EventStore& store) : impl_(new Impl(store)) {}
OpArgsReader::~OpArgsReader() = default;

OpArgs OpArgsReader::read(uint32_t event) {
  OpArgs out;
  const EventStore& s = impl_->store;
  if (event >= s.size() || !s.has_args(event)) return out;
  od::document doc;
  if (impl_->parser.iterate(impl_->padded(s.args_json(event))).get(doc)) return out;
  od::object object;
  if (doc.get_object().get(object)) return out;
  OpArgs parsed;
  for (auto field_result : object) {
    od::field field;
    if (std::move(field_result).get(field)) return out;
    std::string_view key;
    if (field.unescaped_key(false).get(key)) return out;
    std::optional<std::string>* cell = nullptr;
    if (key == "Input Dims") cell = &parsed.input_dims;
    else if (key == "Input type") cell = &parsed.input_type;
    else if (key == "Input Strides") cell = &parsed.input_strides;
    else if (key == "Concrete Inputs") cell = &parsed.concrete_inputs;
    if (!cell) continue;
    od::value value = field.value();
    od::json_type type;
    if (value.type().get(type)) return out;
    if (type == od::json_type::array ? impl_->read_list_cell(value, *cell) : read_cell(value, *cell)) return out;
  }
  return parsed;
}

}  // namespace sollens
