#include "ingest/report_reader.h"

#include <algorithm>

#include <simdjson.h>

namespace sollens {

namespace {

namespace dom = simdjson::dom;

std::string_view skip_space(std::string_view s) {
  size_t i = 0;
  while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  return s.substr(i);
}

ColumnType widen(ColumnType seen, bool first, ColumnType value) {
  if (first || seen == value) return value;
  const auto numeric = [](ColumnType t) { return t == ColumnType::kInt || t == ColumnType::kFloat; };
  if (numeric(seen) && numeric(value)) return ColumnType::kFloat;
  return ColumnType::kString;
}

ColumnType type_of(dom::element e) {
  switch (e.type()) {
    case dom::element_type::STRING: return ColumnType::kString;
    case dom::element_type::BOOL: return ColumnType::kBool;
    case dom::element_type::INT64:
    case dom::element_type::UINT64: return ColumnType::kInt;
    case dom::element_type::DOUBLE: return ColumnType::kFloat;
    default: return ColumnType::kString;
  }
}

void push_value(Column& c, dom::element e) {
  if (e.is_null()) {
    c.push_null();
    return;
  }
  switch (c.type()) {
    case ColumnType::kBool: c.push_bool(bool(e.get_bool().value_unsafe())); return;
    case ColumnType::kInt:
      if (e.type() == dom::element_type::UINT64) c.push_int(static_cast<int64_t>(e.get_uint64().value_unsafe()));
      else c.push_int(e.get_int64().value_unsafe());
      return;
    case ColumnType::kFloat: c.push_float(e.get_double().value_unsafe()); return;
    case ColumnType::kString:
      if (e.is_string()) c.push_string(e.get_string().value_unsafe());
      else c.push_string(simdjson::minify(e));
      return;
  }
}

bool read_sheet(std::string_view name, dom::array rows, std::vector<Table>& out) {
  Table t{std::string(name), TableKind::kSummary};
  std::vector<std::string> names;
  for (dom::element row : rows) {
    dom::object o;
    if (row.get_object().get(o)) return false;
    for (dom::key_value_pair kv : o)
      if (std::find(names.begin(), names.end(), kv.key) == names.end()) names.emplace_back(kv.key);
  }
  std::vector<ColumnType> types(names.size(), ColumnType::kString);
  std::vector<bool> seen(names.size(), false);
  for (dom::element row : rows)
    for (size_t c = 0; c < names.size(); ++c) {
      dom::element v;
      if (row.get_object().value_unsafe().at_key(names[c]).get(v) || v.is_null()) continue;
      types[c] = widen(types[c], !seen[c], type_of(v));
      seen[c] = true;
    }
  for (size_t c = 0; c < names.size(); ++c) {
    Column& col = t.add_column(names[c], types[c]);
    for (dom::element row : rows) {
      dom::element v;
      if (row.get_object().value_unsafe().at_key(names[c]).get(v)) col.push_null();
      else push_value(col, v);
    }
  }
  out.push_back(std::move(t));
  return true;
}

}  // namespace

bool looks_like_report_json(std::string_view text) {
  const auto take = [&text](std::string_view token) {
    text = skip_space(text);
    if (!text.starts_with(token)) return false;
    text.remove_prefix(token.size());
    return true;
  };
  if (!take("{")) return false;
  if (take("\"sheets\"")) return true;
  // Kineto traces may start with "metadata" too; sollens's metadata starts with its generator.
  return take("\"metadata\"") && take(":") && take("{") && take("\"generator\"");
}

Result<StoredReport> read_report_json(std::string_view text) {
  StoredReport result;
  dom::parser parser;
  const simdjson::padded_string padded(text);
  dom::element doc;
  if (const auto err = parser.parse(padded).get(doc))
    return Status(Code::report_not_json, std::string("not a report.json: ") + simdjson::error_message(err));
  dom::object sheets;
  if (doc["sheets"].get_object().get(sheets))
    return Status(Code::report_no_sheets, "not a report.json: no \"sheets\" object");
  std::string_view generator;
  if (!doc["metadata"]["generator"].get_string().get(generator)) result.generator = std::string(generator);
  for (dom::key_value_pair kv : sheets) {
    dom::array rows;
    if (kv.value.get_array().get(rows) || !read_sheet(kv.key, rows, result.sheets))
      return Status(Code::report_bad_sheet,
                    "not a report.json: sheet \"" + std::string(kv.key) + "\" is not an array of rows");
  }
  return result;
}

}  // namespace sollens
