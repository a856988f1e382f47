#pragma once
// A small Python-like value: what TraceLens's perf models read from an event's args
// (nested int lists, dtype strings, Concrete Inputs strings) and what they put into
// their parameter dicts (ints, floats, bools, None, strings, tuples). repr() / str()
// print it as Python does, so param cells and perf_params match TraceLens's text.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "store/event_store.h"

namespace sollens::perf {

struct PyValue {
  enum class Kind : uint8_t { kNone, kBool, kInt, kFloat, kStr, kList, kTuple };
  Kind kind = Kind::kNone;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string s;
  std::vector<PyValue> items;

  static PyValue none() { return {}; }
  static PyValue boolean(bool v) { PyValue p; p.kind = Kind::kBool; p.b = v; return p; }
  static PyValue integer(int64_t v) { PyValue p; p.kind = Kind::kInt; p.i = v; return p; }
  static PyValue real(double v) { PyValue p; p.kind = Kind::kFloat; p.f = v; return p; }
  static PyValue str(std::string_view v) { PyValue p; p.kind = Kind::kStr; p.s = v; return p; }
  static PyValue tuple(std::vector<PyValue> v) { PyValue p; p.kind = Kind::kTuple; p.items = std::move(v); return p; }
  static PyValue list(std::vector<PyValue> v) { PyValue p; p.kind = Kind::kList; p.items = std::move(v); return p; }

  bool is_none() const { return kind == Kind::kNone; }
  bool is_seq() const { return kind == Kind::kList || kind == Kind::kTuple; }
  bool is_int() const { return kind == Kind::kInt; }
  size_t size() const { return items.size(); }
  const PyValue& operator[](size_t k) const { return items[k]; }
  // Python truthiness.
  bool truthy() const;
  // The same value with every list turned into a tuple (TraceLens's list_to_tuple).
  PyValue as_tuple() const;
};

std::string repr(const PyValue& v);
// str(): repr except that a top-level string prints without quotes.
std::string str(const PyValue& v);

// The arg lists the models read, None where the key is absent.
struct EventArgs {
  PyValue dims, types, strides, concrete;
  PyValue output_type;  // args["Output type"]
};

// Parses one event's raw args JSON (malformed: all None).
EventArgs read_event_args(const EventStore& store, uint32_t event);

// Shape helpers: a dims entry as int64s (nullopt when it is not a list of ints).
std::optional<std::vector<int64_t>> int_list(const PyValue& v);
PyValue int_tuple(const std::vector<int64_t>& v);

// ast.literal_eval of the simple texts Concrete Inputs hold: ints, floats, True/False/None,
// quoted strings, [..] lists and (..) tuples. nullopt when it would raise.
std::optional<PyValue> literal_eval(std::string_view text);

}  // namespace sollens::perf
