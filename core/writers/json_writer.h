#pragma once
// A Table as JSON: an array of row objects, keys in column order. Integers as
// integers, floats in their shortest round-trip form (Python repr digits; NaN and
// infinities as null), booleans as true/false, null cells as null, strings escaped
// (", \, control characters; other UTF-8 passes through).
#include <ostream>
#include <string>
#include <string_view>

#include "base/json_text.h"
#include "table/table.h"

namespace sollens {

void write_json(const Table& table, std::ostream& out);
std::string to_json(const Table& table);

}  // namespace sollens
