#pragma once
// A table described without its cells, for a front end that reads the cells column by
// column afterwards: {"id","name","kind","rows","columns":[{"name","type","unit"}]}.
#include <cstdint>
#include <string>
#include <vector>

#include "table/table.h"

namespace sollens {

// type: "string" | "int" | "float" | "bool"; kind and unit as writers/table_labels.h
// names them; id: the front end's handle for the table.
std::string table_description_json(int32_t id, const Table& table);

// The tables described in order as one array, their handles first_id, first_id + 1, ...
std::string table_descriptions_json(int32_t first_id, const std::vector<Table>& tables);

}  // namespace sollens
