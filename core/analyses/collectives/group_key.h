#pragma once
// A kernel arg as TraceLens's NcclAnalyser holds it in its DataFrame (a PyValue with
// lists turned into tuples, None when the key is absent or null), and what pandas then
// does with a column of them: compare and sort group keys, and type the column,
// because the column's dtype decides how the group keys print (an int column with a
// missing value becomes float64 and prints `8.0`, tracelens-semantics.md §10.2).
#include <cstdint>
#include <string>

#include "base/py_value.h"
#include "table/table.h"

namespace sollens::collectives {

// Python numbers (bool is an int there). An int beyond int64 is not one here: it is
// compared by its repr with the other non-numbers.
bool is_number(const PyValue& v);
// The value of a number as a double (0 for anything else).
double number(const PyValue& v);

// str(value) as pandas writes an object cell: strings bare, None empty, others as
// Python prints them.
std::string cell_text(const PyValue& v);

// Python equality of two group-key values (2 == 2.0 == True; others by repr).
bool same_key(const PyValue& a, const PyValue& b);
// The order pandas sorts group keys in: numbers by value, then strings by code point,
// then everything else by repr (pandas puts numbers before strings in mixed columns).
int compare_keys(const PyValue& a, const PyValue& b);

// The dtype pandas gives a column built from a list of such values.
enum class ColumnDtype : uint8_t {
  kInt,     // only ints, none missing
  kFloat,   // numbers with at least one float, or ints with a missing value
  kBool,    // only bools, none missing
  kObject,  // anything else: each cell prints as its own value
};

class DtypeInference {
 public:
  void add(const PyValue& v);
  ColumnDtype dtype() const;

 private:
  bool any_none_ = false, any_int_ = false, any_float_ = false, any_bool_ = false, any_other_ = false;
};

// The table column type of a column of that dtype, and a value pushed as that column holds it.
ColumnType column_type(ColumnDtype dtype);
void push_key(Column& c, ColumnDtype dtype, const PyValue& v);

}  // namespace sollens::collectives
