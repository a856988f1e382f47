#pragma once
// A small ordered document (objects keep member order): a result that is not a table,
// such as Solar's solar.json. writers/document_writer renders it as JSON and as YAML,
// so that the two always say the same.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sollens {

class Document {
 public:
  enum class Kind : uint8_t { kNull, kNumber, kText, kBool, kObject, kArray };
  using Member = std::pair<std::string, Document>;

  static Document number(double v);
  static Document text(std::string v);
  static Document boolean(bool v);
  static Document null() { return Document(); }
  static Document object() { return Document(Kind::kObject); }
  static Document array() { return Document(Kind::kArray); }

  Document& set(std::string key, Document value);  // objects; returns the member
  Document& push(Document value);                  // arrays; returns the item

  Kind kind() const { return kind_; }
  bool is_container() const { return kind_ == Kind::kObject || kind_ == Kind::kArray; }
  double number_value() const { return number_; }
  bool bool_value() const { return flag_; }
  const std::string& text_value() const { return text_; }
  const std::vector<Member>& members() const { return members_; }
  const std::vector<Document>& items() const { return items_; }

 private:
  Document() = default;
  explicit Document(Kind k) : kind_(k) {}

  Kind kind_ = Kind::kNull;
  double number_ = 0;
  bool flag_ = false;
  std::string text_;
  std::vector<Member> members_;
  std::vector<Document> items_;
};

}  // namespace sollens
