#pragma once
// One kernel arg as TraceLens's NcclAnalyser holds it in its DataFrame: a JSON
// scalar, or a list turned into a tuple (list_to_tuple), or None when the key is
// absent or null. Also how pandas then types a whole column of them, because the
// column's dtype decides how the group keys print (an int column with a missing
// value becomes float64 and prints `8.0`, tracelens-semantics.md §10.2).
#include <cstdint>
#include <string>
#include <string_view>

namespace sollens::collectives {

struct ArgValue {
  enum class Kind : uint8_t { kNone, kBool, kInt, kFloat, kStr, kOther };
  Kind kind = Kind::kNone;
  int64_t i = 0;     // kInt, kBool (0/1)
  double f = 0;      // kFloat
  std::string text;  // kStr: the string; kOther: Python repr (tuples, dicts, huge ints)

  static ArgValue none() { return {}; }
  static ArgValue integer(int64_t v) { ArgValue a; a.kind = Kind::kInt; a.i = v; return a; }
  static ArgValue real(double v) { ArgValue a; a.kind = Kind::kFloat; a.f = v; return a; }
  static ArgValue boolean(bool v) { ArgValue a; a.kind = Kind::kBool; a.i = v; return a; }
  static ArgValue str(std::string_view v) { ArgValue a; a.kind = Kind::kStr; a.text = v; return a; }
  static ArgValue other(std::string repr) { ArgValue a; a.kind = Kind::kOther; a.text = std::move(repr); return a; }

  bool is_none() const { return kind == Kind::kNone; }
  // Python numbers (bool is an int there): equal when their values are.
  bool is_number() const { return kind == Kind::kInt || kind == Kind::kFloat || kind == Kind::kBool; }
  double number() const { return kind == Kind::kFloat ? f : static_cast<double>(i); }
  // str(value) as pandas writes an object cell: strings bare, numbers as Python does.
  std::string cell_text() const;
};

// Python equality of two group-key values (2 == 2.0 == True; tuples by repr).
bool same_key(const ArgValue& a, const ArgValue& b);
// The order pandas sorts group keys in: numbers by value, then strings by code point,
// then everything else by repr (pandas puts numbers before strings in mixed columns).
int compare_keys(const ArgValue& a, const ArgValue& b);

// The dtype pandas gives a column built from a list of such values.
enum class ColumnDtype : uint8_t {
  kInt,     // only ints, none missing
  kFloat,   // numbers with at least one float, or ints with a missing value
  kBool,    // only bools, none missing
  kObject,  // anything else: each cell prints as its own value
};

class DtypeInference {
 public:
  void add(const ArgValue& v);
  ColumnDtype dtype() const;

 private:
  bool any_none_ = false, any_int_ = false, any_float_ = false, any_bool_ = false, any_other_ = false;
};

}  // namespace sollens::collectives
