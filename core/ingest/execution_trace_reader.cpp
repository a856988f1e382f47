#include "ingest/execution_trace_reader.h"

#include <simdjson.h>

#include <cstdint>
#include <new>
#include <string>
#include <utility>

#include "ingest/et_parent_links.h"
#include "ingest/file_magic.h"
#include "ingest/gzip.h"
#include "ingest/vector_scan_parser.h"

namespace sollens {
namespace {

namespace od = simdjson::ondemand;
using simdjson::error_code;

std::string at_byte(size_t offset) { return " (byte " + std::to_string(offset) + ")"; }

// A JSON value held after the pass: a node's values, shapes and types arrive as
// separate members (in either order), so each is kept until the node is complete.
struct Lite {
  enum class Kind : uint8_t { kNull, kBool, kInt, kDouble, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  int64_t integer = 0;
  double number = 0;
  std::string text;  // string contents, or an object's raw JSON
  std::vector<Lite> items;

  bool is_int() const { return kind == Kind::kInt; }
  bool is_array() const { return kind == Kind::kArray; }
};

void append_text(const Lite& v, std::string& out, size_t limit) {
  if (out.size() > limit) return;
  switch (v.kind) {
    case Lite::Kind::kNull: out += "null"; break;
    case Lite::Kind::kBool: out += v.integer ? "true" : "false"; break;
    case Lite::Kind::kInt: out += std::to_string(v.integer); break;
    case Lite::Kind::kDouble: out += std::to_string(v.number); break;
    case Lite::Kind::kString: out += '"' + v.text + '"'; break;
    case Lite::Kind::kObject: out += v.text; break;
    case Lite::Kind::kArray:
      out += '[';
      for (size_t i = 0; i < v.items.size(); ++i) {
        if (i) out += ',';
        append_text(v.items[i], out, limit);
        if (out.size() > limit) {
          out += "...";
          break;
        }
      }
      out += ']';
      break;
  }
}

// The element types of "GenericList[Tensor(float),Int]", split at top-level commas.
std::vector<std::string_view> list_element_types(std::string_view type) {
  std::vector<std::string_view> out;
  const size_t open = type.find('[');
  if (open == std::string_view::npos || type.back() != ']') return out;
  const std::string_view inner = type.substr(open + 1, type.size() - open - 2);
  int depth = 0;
  size_t start = 0;
  for (size_t i = 0; i <= inner.size(); ++i) {
    const char c = i < inner.size() ? inner[i] : ',';
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(inner.substr(start, i - start));
      start = i + 1;
    }
  }
  return out;
}

bool is_tensor_type(std::string_view type) { return type.starts_with("Tensor("); }
bool is_undefined_tensor_type(std::string_view type) {
  return type.find("nullptr") != std::string_view::npos;
}

// One node's members before they are assembled.
struct RawSide {
  Lite values, shapes, types;
};

class EtParser {
 public:
  EtParser(od::document& doc, const char* base, ExecutionGraph& graph)
      : doc_(doc), base_(base), graph_(graph) {}

  // The graph's nodes and tensors, or why the text is not an Execution Trace. The first
  // failure stops the pass: every reader below returns as soon as failed().
  Status parse() {
    od::object top;
    if (doc_.get_object().get(top))
      return Status(Code::not_an_execution_trace,
                    "the top level is not a JSON object: an Execution Trace is {\"schema\", \"nodes\", ...}" +
                        at_byte(location()));
    bool saw_nodes = false, saw_trace_events = false;
    for (auto field_result : top) {
      if (!check(field_result.error(), "a top-level member")) break;
      od::field& field = field_result.value_unsafe();
      const std::string_view key = field.escaped_key();
      od::value& v = field.value();
      if (key == "schema") {
        Lite s = read_lite(v, 0);
        if (s.kind == Lite::Kind::kString) graph_.schema = s.text;
      } else if (key == "pid") {
        graph_.pid = read_int(v);
      } else if (key == "time") {
        Lite s = read_lite(v, 0);
        if (s.kind == Lite::Kind::kString) graph_.time = s.text;
      } else if (key == "nodes") {
        saw_nodes = true;
        read_nodes(v);
      } else if (key == "traceEvents") {
        saw_trace_events = true;
      }
      if (failed()) break;
    }
    if (failed()) return status_;
    if (!doc_.at_end()) return Status(Code::et_invalid_json, "content after the top-level object" + at_byte(location()));
    if (!saw_nodes && saw_trace_events)
      return Status(Code::et_is_kineto,
                    "this is a Kineto trace (it has \"traceEvents\"), not an Execution Trace: give it with --kineto");
    if (!saw_nodes)
      return Status(Code::not_an_execution_trace, "no \"nodes\" array in the top-level object: not an Execution Trace");
    if (graph_.schema.empty())
      graph_.warnings.push_back(
          {Code::et_no_schema, "no \"schema\" key: read as the 1.0.1 or chakra layout node by node"});
    if (bad_tensors_)
      graph_.warnings.push_back({Code::et_bad_tensors, std::to_string(bad_tensors_) +
                                                           " tensor values are not [id, storage, offset, numel, "
                                                           "itemsize, device] tuples: read as non-tensor arguments"});
    return Status::success();
  }

 private:
  size_t location() {
    const char* p = nullptr;
    if (!doc_.current_location().get(p) && p >= base_) return static_cast<size_t>(p - base_);
    return node_offset_;
  }

  bool failed() const { return !status_.ok(); }

  // Records the first failure, at the parser's place in the text.
  void fail(Code code, const std::string& what) {
    if (!failed()) status_ = Status(code, what + at_byte(location()));
  }

  // False (and the failure recorded) when simdjson met an error.
  bool check(error_code e, const char* what) {
    if (e) fail(Code::et_invalid_json, std::string("invalid JSON in ") + what + ": " + simdjson::error_message(e));
    return !e;
  }

  int64_t read_int(od::value& v) {
    const Lite x = read_lite(v, 0);
    if (x.kind == Lite::Kind::kInt || x.kind == Lite::Kind::kBool) return x.integer;
    if (x.kind == Lite::Kind::kDouble && x.number > -9e18 && x.number < 9e18)
      return static_cast<int64_t>(x.number);
    return -1;
  }

  Lite read_lite(od::value& v, int depth) {
    Lite out;
    if (depth > 64) {
      fail(Code::et_bad_node, "values nested deeper than 64 levels");
      return out;
    }
    od::json_type type{};
    if (!check(v.type().get(type), "a value")) return out;
    switch (type) {
      case od::json_type::array: {
        out.kind = Lite::Kind::kArray;
        od::array array;
        if (!check(v.get_array().get(array), "an array")) break;
        for (auto element : array) {
          od::value item;
          if (!check(std::move(element).get(item), "an array element")) break;
          out.items.push_back(read_lite(item, depth + 1));
          if (failed()) break;
        }
        break;
      }
      case od::json_type::object: {
        out.kind = Lite::Kind::kObject;
        std::string_view raw;
        check(v.raw_json().get(raw), "an object");
        out.text = std::string(raw);
        break;
      }
      case od::json_type::number: {
        od::number_type nt{};
        check(v.get_number_type().get(nt), "a number");
        if (nt == od::number_type::signed_integer) {
          out.kind = Lite::Kind::kInt;
          check(v.get_int64().get(out.integer), "an integer");
        } else if (nt == od::number_type::unsigned_integer) {
          uint64_t u = 0;
          check(v.get_uint64().get(u), "an integer");
          out.kind = Lite::Kind::kDouble;
          out.number = static_cast<double>(u);
        } else {
          out.kind = Lite::Kind::kDouble;
          check(v.get_double().get(out.number), "a number");
        }
        break;
      }
      case od::json_type::string: {
        out.kind = Lite::Kind::kString;
        std::string_view s;
        check(v.get_string().get(s), "a string");
        out.text = std::string(s);
        break;
      }
      case od::json_type::boolean: {
        bool b = false;
        check(v.get_bool().get(b), "a boolean");
        out.kind = Lite::Kind::kBool;
        out.integer = b;
        break;
      }
      default: {
        bool null = false;
        check(v.is_null().get(null), "a value");
        break;
      }
    }
    return out;
  }

  void read_nodes(od::value& v) {
    od::array nodes;
    if (v.get_array().get(nodes)) return fail(Code::not_an_execution_trace, "\"nodes\" is not an array");
    size_t index = 0;
    for (auto element : nodes) {
      od::value node;
      if (!check(std::move(element).get(node), "the nodes array")) return;
      read_node(node, index++);
      if (failed()) return;
    }
  }

  void read_side_object(od::value& v, RawSide& side) {
    od::object obj;
    if (!check(v.get_object().get(obj), "inputs/outputs")) return;
    for (auto field_result : obj) {
      if (!check(field_result.error(), "inputs/outputs")) return;
      od::field& field = field_result.value_unsafe();
      const std::string_view key = field.escaped_key();
      od::value& x = field.value();
      if (key == "values") side.values = read_lite(x, 0);
      else if (key == "shapes") side.shapes = read_lite(x, 0);
      else if (key == "types") side.types = read_lite(x, 0);
      if (failed()) return;
    }
  }

  void set_field(EtNode& node, std::string_view key, od::value& v, RawSide& in, RawSide& out) {
    if (key == "id") node.id = read_int(v);
    else if (key == "parent" || key == "ctrl_deps") node.parent = read_int(v);
    else if (key == "name") node.name = read_lite(v, 0).text;
    else if (key == "inputs" || key == "outputs") {
      RawSide& side = key == "inputs" ? in : out;
      od::json_type t{};
      if (!check(v.type().get(t), "inputs/outputs")) return;
      if (t == od::json_type::object) read_side_object(v, side);
      else side.values = read_lite(v, 0);
    } else if (key == "input_shapes") in.shapes = read_lite(v, 0);
    else if (key == "input_types") in.types = read_lite(v, 0);
    else if (key == "output_shapes") out.shapes = read_lite(v, 0);
    else if (key == "output_types") out.types = read_lite(v, 0);
    else if (key == "attrs") read_attrs(node, v);
    else set_attribute(node, key, read_lite(v, 0));
  }

  static void set_attribute(EtNode& node, std::string_view key, const Lite& x) {
    const bool number = x.kind == Lite::Kind::kInt;
    if (key == "op_schema") node.op_schema = x.text;
    else if (!number) return;
    else if (key == "rf_id") node.rf_id = x.integer;
    else if (key == "scope") node.scope = x.integer;
    else if (key == "tid") node.tid = x.integer;
    else if (key == "fw_tid") node.fw_tid = x.integer;
    else if (key == "fw_parent") node.fw_parent = x.integer;
    else if (key == "seq_id") node.seq_id = x.integer;
  }

  void read_attrs(EtNode& node, od::value& v) {
    const Lite attrs = read_lite(v, 0);
    if (!attrs.is_array()) return;
    for (const Lite& a : attrs.items) {
      if (a.kind != Lite::Kind::kObject) continue;
      // An attribute is {"name", "type", "value"}: small, so parse it again on its own.
      simdjson::padded_string text(a.text);
      od::parser parser;
      od::document doc;
      od::object obj;
      if (parser.iterate(text).get(doc) || doc.get_object().get(obj)) continue;
      std::string name;
      Lite value;
      for (auto field_result : obj) {
        if (field_result.error()) break;
        od::field& field = field_result.value_unsafe();
        const std::string_view key = field.escaped_key();
        od::value& x = field.value();
        if (key == "name") {
          std::string_view s;
          if (!x.get_string().get(s)) name = s;
        } else if (key == "value") {
          value = lite_of_attr_value(x);
        }
      }
      set_attribute(node, name, value);
    }
  }

  static Lite lite_of_attr_value(od::value& x) {
    Lite out;
    int64_t i = 0;
    uint64_t u = 0;
    std::string_view s;
    if (!x.get_int64().get(i)) {
      out.kind = Lite::Kind::kInt;
      out.integer = i;
    } else if (!x.get_uint64().get(u)) {
      out.kind = Lite::Kind::kInt;
      out.integer = u > uint64_t(INT64_MAX) ? -1 : static_cast<int64_t>(u);
    } else if (!x.get_string().get(s)) {
      out.kind = Lite::Kind::kString;
      out.text = std::string(s);
    }
    return out;
  }

  void read_node(od::value& value, size_t index) {
    node_offset_ = static_cast<size_t>(value.raw_json_token().data() - base_);
    od::json_type type{};
    if (!check(value.type().get(type), "a node")) return;
    if (type != od::json_type::object) return fail(Code::et_bad_node, "node " + std::to_string(index) + " is not an object");
    od::object obj;
    if (!check(value.get_object().get(obj), "a node")) return;
    EtNode node;
    node.byte_offset = node_offset_;
    node.id = -1;
    node.parent = -1;
    RawSide in, out;
    for (auto field_result : obj) {
      if (!check(field_result.error(), "a node")) return;
      od::field& field = field_result.value_unsafe();
      od::value& v = field.value();
      set_field(node, field.escaped_key(), v, in, out);
      if (failed()) return;
    }
    if (node.id < 0) {
      status_ = Status(Code::et_bad_node, "node " + std::to_string(index) + " has no integer \"id\"" + at_byte(node_offset_));
      return;
    }
    const std::vector<std::string> names = schema_argument_names(node.op_schema);
    node.inputs = assemble(in, &names);
    node.outputs = assemble(out, nullptr);
    graph_.nodes.push_back(std::move(node));
  }

  // A tensor tuple [id, storage, offset, numel, itemsize, device], or -1.
  int64_t add_tensor(const Lite& tuple, const Lite* shape, std::string_view type) {
    const auto& t = tuple.items;
    if (!tuple.is_array() || t.size() != 6 || !t[0].is_int() || !t[1].is_int() || !t[2].is_int() ||
        !t[3].is_int() || !t[4].is_int() || t[3].integer < 0 || t[4].integer < 0) {
      ++bad_tensors_;
      return -1;
    }
    EtTensor tensor;
    tensor.id = t[0].integer;
    tensor.storage = t[1].integer;
    tensor.offset = t[2].integer;
    tensor.numel = t[3].integer;
    tensor.itemsize = t[4].integer;
    tensor.device = t[5].text;
    if (shape && shape->is_array()) {
      for (const Lite& d : shape->items) {
        if (!d.is_int()) {
          tensor.shape.clear();
          break;
        }
        tensor.shape.push_back(d.integer);
      }
    }
    const size_t open = type.find('(');
    if (open != std::string_view::npos && type.back() == ')')
      tensor.dtype = std::string(type.substr(open + 1, type.size() - open - 2));
    graph_.tensors.push_back(std::move(tensor));
    return static_cast<int64_t>(graph_.tensors.size() - 1);
  }

  std::vector<EtValue> assemble(const RawSide& side, const std::vector<std::string>* names) {
    std::vector<EtValue> out;
    if (!side.values.is_array()) return out;
    const auto& values = side.values.items;
    for (size_t i = 0; i < values.size(); ++i) {
      EtValue v;
      if (side.types.is_array() && i < side.types.items.size()) v.type = side.types.items[i].text;
      if (names && i < names->size()) v.name = (*names)[i];
      const Lite* shape =
          side.shapes.is_array() && i < side.shapes.items.size() ? &side.shapes.items[i] : nullptr;
      if (is_tensor_type(v.type) && !is_undefined_tensor_type(v.type)) {
        const int64_t t = add_tensor(values[i], shape, v.type);
        if (t >= 0) {
          v.kind = EtValue::Kind::kTensor;
          v.tensors.push_back(static_cast<uint32_t>(t));
        }
      } else if (v.type.starts_with("GenericList[") && values[i].is_array()) {
        read_tensor_list(values[i], shape, v);
      }
      if (v.kind == EtValue::Kind::kOther) append_text(values[i], v.text, 80);
      out.push_back(std::move(v));
    }
    return out;
  }

  void read_tensor_list(const Lite& list, const Lite* shapes, EtValue& v) {
    const std::vector<std::string_view> types = list_element_types(v.type);
    for (size_t j = 0; j < list.items.size() && j < types.size(); ++j) {
      if (!is_tensor_type(types[j]) || is_undefined_tensor_type(types[j])) continue;
      const Lite* shape =
          shapes && shapes->is_array() && j < shapes->items.size() ? &shapes->items[j] : nullptr;
      const int64_t t = add_tensor(list.items[j], shape, types[j]);
      if (t >= 0) v.tensors.push_back(static_cast<uint32_t>(t));
    }
    if (!v.tensors.empty()) v.kind = EtValue::Kind::kTensorList;
  }

  od::document& doc_;
  const char* base_;
  ExecutionGraph& graph_;
  size_t node_offset_ = 0;
  size_t bad_tensors_ = 0;
  Status status_;  // the first failure
};

// The first byte that is not valid UTF-8 or is a raw control character, or npos.
size_t first_invalid_byte(std::string_view text) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t i = 0; i < text.size();) {
    const unsigned char c = p[i];
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return i;
    const size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > text.size()) return i;
    for (size_t k = 1; k < len; ++k)
      if ((p[i + k] & 0xC0) != 0x80) return i;
    i += len;
  }
  return std::string_view::npos;
}

// Structural errors found before any value is read carry no position from simdjson:
// say where the text goes wrong, or that it ends too early.
std::string describe_unparsable(std::string_view text, error_code e) {
  const std::string what = std::string("not valid JSON: ") + simdjson::error_message(e);
  const size_t bad = first_invalid_byte(text);
  if (bad != std::string_view::npos) return what + at_byte(bad);
  return what + "; the file may be cut short" + at_byte(text.size());
}

Status check_start(std::string_view text) {
  size_t p = 0;
  while (p < text.size() && (text[p] == ' ' || text[p] == '\n' || text[p] == '\r' || text[p] == '\t'))
    ++p;
  if (p == text.size()) return Status(Code::file_empty, "the file holds only whitespace");
  if (text[p] == '[')
    return Status(Code::not_an_execution_trace, "the top level is an array, not a JSON object: an Execution "
                                                "Trace is {\"schema\", \"nodes\", ...}" + at_byte(p));
  if (text[p] != '{')
    return Status(Code::not_json, "not JSON: " + not_json_reason(text, p, false) +
                                      "; expected a PyTorch Execution Trace (.json or .json.gz)");
  return Status::success();
}

Result<std::unique_ptr<ExecutionGraph>> parse_execution_trace(PaddedBuffer bytes) {
  if (looks_like_gzip(bytes.view())) {
    Result<Gunzipped> unzipped = gunzip(bytes.view());
    if (!unzipped.ok()) return unzipped.status();
    if (unzipped->truncated) return Status(Code::et_cut_short, "the gzip stream ends early: the file is cut short");
    bytes = std::move(unzipped->data);
  }
  if (bytes.size() == 0) return Status(Code::file_empty, "the file is empty");
  if (Status start = check_start(bytes.view()); !start.ok()) return start;
  auto graph = std::make_unique<ExecutionGraph>();
  prefer_vector_scan();
  od::parser parser;
  od::document doc;
  if (auto e = parser.iterate(bytes.data(), bytes.size(), bytes.capacity()).get(doc))
    return Status(Code::et_invalid_json, describe_unparsable(bytes.view(), e));
  if (Status parsed = EtParser(doc, bytes.data(), *graph).parse(); !parsed.ok()) return parsed;
  check_parent_links(*graph);
  return graph;
}

}  // namespace

std::vector<std::string> schema_argument_names(std::string_view op_schema) {
  std::vector<std::string> names;
  const size_t open = op_schema.find('(');
  if (open == std::string_view::npos) return names;
  int depth = 0;
  size_t start = open + 1;
  for (size_t i = open + 1; i < op_schema.size(); ++i) {
    const char c = op_schema[i];
    const bool closes_list = c == ')' && depth == 0;
    if ((c == ',' && depth == 0) || closes_list) {
      std::string_view arg = op_schema.substr(start, i - start);
      arg = arg.substr(0, arg.find('='));
      while (!arg.empty() && arg.back() == ' ') arg.remove_suffix(1);
      while (!arg.empty() && arg.front() == ' ') arg.remove_prefix(1);
      const size_t space = arg.rfind(' ');
      if (space != std::string_view::npos) names.emplace_back(arg.substr(space + 1));
      start = i + 1;
      if (closes_list) break;
      continue;
    }
    if (c == '(' || c == '[') ++depth;
    if (c == ')' || c == ']') --depth;
  }
  return names;
}

Result<std::unique_ptr<ExecutionGraph>> load_execution_trace(PaddedBuffer bytes) {
  try {
    return parse_execution_trace(std::move(bytes));
  } catch (const std::bad_alloc&) {  // the standard library's
    return Status(Code::out_of_memory, "out of memory while reading the Execution Trace");
  }
}

}  // namespace sollens
