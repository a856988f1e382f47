#include "writers/document_writer.h"

#include <cmath>
#include <cstdint>

#include "base/json_text.h"
#include "writers/json_builder.h"

namespace sollens {

namespace {

// Doubles hold every integer below 2^53 exactly: those print without a decimal point.
constexpr double kExactIntegers = 9007199254740992.0;

void write_number(JsonBuilder& json, double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < kExactIntegers)
    json.integer(static_cast<int64_t>(v));
  else
    json.number(v);
}

void write_value(JsonBuilder& json, const Document& doc) {
  switch (doc.kind()) {
    case Document::Kind::kNull: json.null(); break;
    case Document::Kind::kBool: json.boolean(doc.bool_value()); break;
    case Document::Kind::kText: json.string(doc.text_value()); break;
    case Document::Kind::kNumber: write_number(json, doc.number_value()); break;
    case Document::Kind::kObject:
      json.begin_object();
      for (const auto& [key, value] : doc.members()) write_value(json.key(key), value);
      json.end_object();
      break;
    case Document::Kind::kArray:
      json.begin_array();
      for (const Document& item : doc.items()) write_value(json, item);
      json.end_array();
      break;
  }
}

// A scalar, a key, or an empty container, as its JSON text.
std::string json_text(const Document& doc) {
  JsonBuilder json;
  write_value(json, doc);
  return json.take();
}

bool is_empty_container(const Document& doc) {
  return doc.is_container() && doc.members().empty() && doc.items().empty();
}

void append_yaml(std::string& out, const Document& doc, size_t indent);

void append_yaml_object(std::string& out, const Document& doc, size_t indent) {
  const std::string pad(indent, ' ');
  for (const auto& [key, value] : doc.members()) {
    out += pad + json_string(key) + ":";
    if (value.is_container() && !is_empty_container(value)) {
      out += '\n';
      append_yaml(out, value, indent + 2);
    } else {
      out += ' ' + json_text(value) + '\n';
    }
  }
}

void append_yaml_array(std::string& out, const Document& doc, size_t indent) {
  const std::string pad(indent, ' ');
  for (const Document& item : doc.items()) {
    if (!item.is_container()) {
      out += pad + "- " + json_text(item) + '\n';
      continue;
    }
    std::string inner;
    append_yaml(inner, item, indent + 2);
    // The item's first line follows the dash, in place of its indent.
    out += pad + "- " + (inner.size() >= indent + 2 ? inner.substr(indent + 2) : inner);
  }
}

void append_yaml(std::string& out, const Document& doc, size_t indent) {
  if (doc.kind() == Document::Kind::kObject)
    append_yaml_object(out, doc, indent);
  else if (doc.kind() == Document::Kind::kArray)
    append_yaml_array(out, doc, indent);
  else
    out += std::string(indent, ' ') + json_text(doc) + '\n';
}

}  // namespace

std::string document_json(const Document& doc) { return json_text(doc); }

std::string document_yaml(const Document& doc) {
  std::string out;
  append_yaml(out, doc, 0);
  return out;
}

}  // namespace sollens
