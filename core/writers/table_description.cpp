#include "writers/table_description.h"

#include "base/json_text.h"
#include "writers/table_labels.h"

namespace sollens {

namespace {

const char* type_name(ColumnType type) {
  switch (type) {
    case ColumnType::kString: return "string";
    case ColumnType::kInt: return "int";
    case ColumnType::kFloat: return "float";
    case ColumnType::kBool: return "bool";
  }
  return "string";
}

}  // namespace

std::string table_description_json(int32_t id, const Table& table) {
  std::string out = "{\"id\":" + std::to_string(id) + ",\"name\":" + json_string(table.name()) +
                    ",\"kind\":" + json_string(table_kind_name(table.kind())) +
                    ",\"rows\":" + std::to_string(table.num_rows()) + ",\"columns\":[";
  for (size_t c = 0; c < table.num_columns(); ++c) {
    const Column& col = table.column(c);
    out += std::string(c ? "," : "") + "{\"name\":" + json_string(col.name()) + ",\"type\":\"" +
           type_name(col.type()) + "\",\"unit\":" + json_string(unit_symbol(col.unit())) + "}";
  }
  return out + "]}";
}

}  // namespace sollens
