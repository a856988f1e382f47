#pragma once
// An arg value as TraceLens sees it: the Python object json.loads makes of an
// event's args (int, float, str, bool, None, list, dict), plus the tuples TraceLens
// builds from lists (list_to_tuple) and its models build for their parameters.
// repr() / str() print it as Python does, so sheet cells match TraceLens's text.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sollens {

struct PyValue {
  // kBigInt: an int outside int64 (Python ints have no limit), kept as its digits.
  enum class Kind : uint8_t { kNone, kBool, kInt, kBigInt, kFloat, kStr, kList, kTuple, kDict };
  Kind kind = Kind::kNone;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;               // kStr: the text; kBigInt: the digits
  std::vector<PyValue> items;  // kList, kTuple; kDict: key, value, key, value, ... (str keys)

  static PyValue none() { return {}; }
  static PyValue boolean(bool v) { PyValue p; p.kind = Kind::kBool; p.b = v; return p; }
  static PyValue integer(int64_t v) { PyValue p; p.kind = Kind::kInt; p.i = v; return p; }
  static PyValue big_integer(std::string_view digits) { PyValue p; p.kind = Kind::kBigInt; p.s = digits; return p; }
  static PyValue real(double v) { PyValue p; p.kind = Kind::kFloat; p.f = v; return p; }
  static PyValue str(std::string_view v) { PyValue p; p.kind = Kind::kStr; p.s = v; return p; }
  static PyValue tuple(std::vector<PyValue> v) { PyValue p; p.kind = Kind::kTuple; p.items = std::move(v); return p; }
  static PyValue list(std::vector<PyValue> v) { PyValue p; p.kind = Kind::kList; p.items = std::move(v); return p; }
  // From key, value, key, value, ... in insertion order.
  static PyValue dict(std::vector<PyValue> keys_and_values) { PyValue p; p.kind = Kind::kDict; p.items = std::move(keys_and_values); return p; }

  bool is_none() const { return kind == Kind::kNone; }
  bool is_seq() const { return kind == Kind::kList || kind == Kind::kTuple; }
  bool is_int() const { return kind == Kind::kInt; }
  size_t size() const { return items.size(); }
  const PyValue& operator[](size_t k) const { return items[k]; }
  // Python truthiness.
  bool truthy() const;
  // TraceLens's list_to_tuple: every list, recursively, becomes a tuple; it does not
  // descend into dicts, so lists there stay lists.
  PyValue as_tuple() const;
};

std::string repr(const PyValue& v);
void append_repr(std::string& out, const PyValue& v);
// str(): repr except that a top-level string prints without quotes.
std::string str(const PyValue& v);
// How TraceLens's sheets print an input arg ("Input Dims" and its kin):
// str(list_to_tuple(v)), nullopt (an empty cell) for None.
std::optional<std::string> tuple_cell(const PyValue& v);

// An int the trace wrote as a number or as its decimal text (Concrete Inputs hold
// strings); nullopt for anything else.
std::optional<int64_t> int_value(const PyValue& v);

// Shape helpers: a dims entry as int64s (nullopt when it is not a list of ints).
std::optional<std::vector<int64_t>> int_list(const PyValue& v);
PyValue int_tuple(const std::vector<int64_t>& v);

}  // namespace sollens
