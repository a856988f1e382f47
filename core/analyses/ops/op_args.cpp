#include "analyses/ops/op_args.h"

#include <simdjson.h>

#include <string>
#include <unordered_map>

#include "store/raw_args.h"

namespace sollens {

namespace od = simdjson::ondemand;
using simdjson::error_code;
using simdjson::SUCCESS;

namespace {

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
  } else if (auto e = append_python_repr(v, text, true)) {
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

  error_code read_list_cell(od::value v, std::optional<std::string>& cell) {
    std::string_view raw;
    if (auto e = v.raw_json().get(raw)) return e;
    raw = trim_json_token(raw);
    if (auto it = list_cells.find(raw); it != list_cells.end()) {
      cell = it->second;
      return SUCCESS;
    }
    od::document doc;
    if (auto e = value_parser.iterate(padded_input_view(store, raw)).get(doc)) return e;
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
  if (impl_->parser.iterate(padded_input_view(s, s.args_json(event))).get(doc)) return out;
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
