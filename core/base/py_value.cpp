#include "base/py_value.h"

#include <cstdlib>

#include "base/number_format.h"
#include "base/python_repr.h"

namespace sollens {

bool PyValue::truthy() const {
  switch (kind) {
    case Kind::kNone: return false;
    case Kind::kBool: return b;
    case Kind::kInt: return i != 0;
    case Kind::kBigInt: return true;  // never 0: 0 fits in int64
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

void append_repr(std::string& out, const PyValue& v) {
  switch (v.kind) {
    case PyValue::Kind::kNone: out += "None"; return;
    case PyValue::Kind::kBool: out += v.b ? "True" : "False"; return;
    case PyValue::Kind::kInt: out += std::to_string(v.i); return;
    case PyValue::Kind::kBigInt: out += v.s; return;
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
    case PyValue::Kind::kDict: {
      PythonReprBuilder b(PythonReprBuilder::Kind::kDict);
      for (size_t k = 0; k + 1 < v.items.size(); k += 2) {
        append_repr(b.key(), v.items[k]);
        append_repr(b.value(), v.items[k + 1]);
      }
      out += b.finish();
      return;
    }
  }
}

std::string repr(const PyValue& v) {
  std::string out;
  append_repr(out, v);
  return out;
}

std::string str(const PyValue& v) { return v.kind == PyValue::Kind::kStr ? v.s : repr(v); }

std::optional<std::string> tuple_cell(const PyValue& v) {
  if (v.is_none()) return std::nullopt;
  return str(v.as_tuple());
}

std::optional<int64_t> int_value(const PyValue& v) {
  if (v.kind == PyValue::Kind::kInt) return v.i;
  if (v.kind != PyValue::Kind::kStr || v.s.empty()) return std::nullopt;
  char* end = nullptr;
  const long long n = std::strtoll(v.s.c_str(), &end, 10);
  if (end != v.s.c_str() + v.s.size()) return std::nullopt;
  return n;
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

}  // namespace sollens
