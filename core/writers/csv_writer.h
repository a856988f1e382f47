#pragma once
// CSV as pandas' to_csv(index=False) writes it: UTF-8, \n line ends, minimal quoting,
// empty cells for nulls, Python reprs for floats and booleans.
#include <ostream>
#include <string>

#include "table/table.h"

namespace sollens {

void write_csv(const Table& table, std::ostream& out);
std::string to_csv(const Table& table);
std::string csv_field(std::string_view text);  // quoted only when it must be

}  // namespace sollens
