#include "analyses/perf/py_value.h"

#include <simdjson.h>

#include <cstdlib>

#include "base/number_format.h"
#include "base/python_repr.h"

namespace sollens::perf {

bool PyValue::truthy() const {
  switch (kind) {
    case Kind::kNone: return false;
    case Kind::kBool: return b;
    case Kind::kInt: return i != 0;
    case Kind::kFloat: return f != 0;
    case Kind::kStr: return !s.empty();
    default: return !items.empty();
  }
}

PyValue PyValue::as_tuple() const {
  if (!is_seq()) return *this;
  std::vector<PyValue> out;
  out.reserve(items.size());
  for (const auto& x : items) out.push_back(x.as_tuple());
  return tuple(std::move(out));
}

namespace {

void append_repr(std::string& out, const PyValue& v) {
  switch (v.kind) {
    case PyValue::Kind::kNone: out += "None"; return;
    case PyValue::Kind::kBool: out += v.b ? "True" : "False"; return;
    case PyValue::Kind::kInt: out += std::to_string(v.i); return;
    case PyValue::Kind::kFloat: out += format_python_float(v.f); return;
    case PyValue::Kind::kStr: append_python_str_repr(out, v.s); return;
    case PyValue::Kind::kList:
    case PyValue::Kind::kTuple: {
      PythonReprBuilder b(v.kind == PyValue::Kind::kList ? PythonReprBuilder::Kind::kList
                                                          : PythonReprBuilder::Kind::kTuple);
      for (const auto& x : v.items) append_repr(b.element(), x);
      out += b.finish();
      return;
    }
  }
}

PyValue from_json(simdjson::dom::element e) {
  using simdjson::dom::element_type;
  switch (e.type()) {
    case element_type::ARRAY: {
      std::vector<PyValue> items;
      simdjson::dom::array array;
      if (e.get_array().get(array)) return PyValue::none();
      for (simdjson::dom::element x : array) items.push_back(from_json(x));
      return PyValue::list(std::move(items));
    }
    case element_type::INT64: return PyValue::integer(e.get_int64().value_unsafe());
    case element_type::UINT64: return PyValue::integer(static_cast<int64_t>(e.get_uint64().value_unsafe()));
    case element_type::DOUBLE: return PyValue::real(e.get_double().value_unsafe());
    case element_type::STRING: return PyValue::str(e.get_string().value_unsafe());
    case element_type::BOOL: return PyValue::boolean(e.get_bool().value_unsafe());
    default: return PyValue::none();  // null; objects are not read by any model
  }
}

}  // namespace

std::string repr(const PyValue& v) {
  std::string out;
  append_repr(out, v);
  return out;
}

std::string str(const PyValue& v) { return v.kind == PyValue::Kind::kStr ? v.s : repr(v); }

EventArgs read_event_args(const EventStore& s, uint32_t event) {
  EventArgs out;
  if (event >= s.size() || !s.has_args(event)) return out;
  thread_local simdjson::dom::parser parser;
  const std::string_view json = s.args_json(event);
  simdjson::dom::element doc;
  if (parser.parse(json.data(), json.size(), true).get(doc)) return out;
  simdjson::dom::object obj;
  if (doc.get_object().get(obj)) return out;
  for (auto [key, value] : obj) {
    if (key == "Input Dims") out.dims = from_json(value);
    else if (key == "Input type") out.types = from_json(value);
    else if (key == "Input Strides") out.strides = from_json(value);
    else if (key == "Concrete Inputs") out.concrete = from_json(value);
    else if (key == "Output type") out.output_type = from_json(value);
  }
  return out;
}

std::optional<std::vector<int64_t>> int_list(const PyValue& v) {
  if (!v.is_seq()) return std::nullopt;
  std::vector<int64_t> out;
  for (const auto& x : v.items) {
    if (!x.is_int()) return std::nullopt;
    out.push_back(x.i);
  }
  return out;
}

PyValue int_tuple(const std::vector<int64_t>& v) {
  std::vector<PyValue> items;
  for (int64_t x : v) items.push_back(PyValue::integer(x));
  return PyValue::tuple(std::move(items));
}

}  // namespace sollens::perf

namespace sollens::perf {

namespace {

struct LiteralParser {
  std::string_view t;
  size_t p = 0;
  void ws() {
    while (p < t.size() && (t[p] == ' ' || t[p] == '\t' || t[p] == '\n')) ++p;
  }
  std::optional<PyValue> value() {
    ws();
    if (p >= t.size()) return std::nullopt;
    const char c = t[p];
    if (c == '[' || c == '(') {
      const char close = c == '[' ? ']' : ')';
      ++p;
      std::vector<PyValue> items;
      bool trailing_comma = false;
      ws();
      if (p < t.size() && t[p] == close) {
        ++p;
        return c == '[' ? PyValue::list({}) : PyValue::tuple({});
      }
      while (true) {
        auto v = value();
        if (!v) return std::nullopt;
        items.push_back(std::move(*v));
        ws();
        if (p >= t.size()) return std::nullopt;
        if (t[p] == ',') {
          ++p;
          ws();
          trailing_comma = true;
          if (p < t.size() && t[p] == close) {
            ++p;
            break;
          }
          continue;
        }
        if (t[p] == close) {
          ++p;
          trailing_comma = false;
          break;
        }
        return std::nullopt;
      }
      if (c == '(' && items.size() == 1 && !trailing_comma) return std::move(items[0]);
      return c == '[' ? PyValue::list(std::move(items)) : PyValue::tuple(std::move(items));
    }
    if (c == '\'' || c == '"') {
      const size_t end = t.find(c, p + 1);
      if (end == std::string_view::npos) return std::nullopt;
      PyValue v = PyValue::str(t.substr(p + 1, end - p - 1));
      p = end + 1;
      return v;
    }
    for (auto [word, val] : {std::pair{std::string_view("True"), PyValue::boolean(true)},
                             {std::string_view("False"), PyValue::boolean(false)},
                             {std::string_view("None"), PyValue::none()}}) {
      if (t.substr(p, word.size()) == word) {
        p += word.size();
        return val;
      }
    }
    const size_t start = p;
    if (p < t.size() && (t[p] == '-' || t[p] == '+')) ++p;
    bool is_float = false;
    while (p < t.size() && ((t[p] >= '0' && t[p] <= '9') || t[p] == '.' || t[p] == 'e' || t[p] == 'E' ||
                            ((t[p] == '-' || t[p] == '+') && (t[p - 1] == 'e' || t[p - 1] == 'E')))) {
      if (t[p] == '.' || t[p] == 'e' || t[p] == 'E') is_float = true;
      ++p;
    }
    const std::string num(t.substr(start, p - start));
    if (num.empty() || num == "-" || num == "+") return std::nullopt;
    char* end = nullptr;
    if (is_float) {
      const double d = std::strtod(num.c_str(), &end);
      if (end != num.c_str() + num.size()) return std::nullopt;
      return PyValue::real(d);
    }
    const long long i = std::strtoll(num.c_str(), &end, 10);
    if (end != num.c_str() + num.size()) return std::nullopt;
    return PyValue::integer(i);
  }
};

}  // namespace

std::optional<PyValue> literal_eval(std::string_view text) {
  LiteralParser parser{text};
  auto v = parser.value();
  parser.ws();
  if (!v || parser.p != text.size()) return std::nullopt;
  return v;
}

}  // namespace sollens::perf
