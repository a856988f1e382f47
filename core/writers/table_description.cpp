#include "writers/table_description.h"

#include "writers/json_builder.h"
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

void describe(JsonBuilder& json, int32_t id, const Table& table) {
  json.begin_object()
      .member("id", id)
      .member("name", table.name())
      .member("kind", table_kind_name(table.kind()))
      .member("rows", table.num_rows())
      .key("columns")
      .begin_array();
  for (size_t c = 0; c < table.num_columns(); ++c) {
    const Column& col = table.column(c);
    json.begin_object()
        .member("name", col.name())
        .member("type", type_name(col.type()))
        .member("unit", unit_symbol(col.unit()))
        .end_object();
  }
  json.end_array().end_object();
}

}  // namespace

std::string table_description_json(int32_t id, const Table& table) {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  describe(json, id, table);
  return json.take();
}

std::string table_descriptions_json(int32_t first_id, const std::vector<Table>& tables) {
  JsonBuilder json(JsonBuilder::Spacing::kCompact);
  json.begin_array();
  for (size_t i = 0; i < tables.size(); ++i) describe(json, first_id + static_cast<int32_t>(i), tables[i]);
  return json.end_array().take();
}

}  // namespace sollens
