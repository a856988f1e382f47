#pragma once
// A small ordered document (objects keep member order) rendered both as JSON and as
// YAML-compatible text, so that solar.json and solar.yaml always say the same.
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sollens::solar {

class Doc {
 public:
  enum class Kind : uint8_t { kNull, kNumber, kText, kBool, kObject, kArray };

  static Doc number(double v);
  static Doc text(std::string v);
  static Doc boolean(bool v);
  static Doc null() { return Doc(); }
  static Doc object() { return Doc(Kind::kObject); }
  static Doc array() { return Doc(Kind::kArray); }

  Doc& set(std::string key, Doc value);  // objects; returns the member
  Doc& push(Doc value);                  // arrays; returns the item

  std::string json() const;
  std::string yaml() const;

 private:
  Doc() = default;
  explicit Doc(Kind k) : kind_(k) {}
  void append_json(std::string& out) const;
  void append_yaml(std::string& out, int indent) const;
  std::string scalar() const;
  bool is_container() const { return kind_ == Kind::kObject || kind_ == Kind::kArray; }

  Kind kind_ = Kind::kNull;
  double number_ = 0;
  std::string text_;
  std::vector<std::pair<std::string, Doc>> members_;
  std::vector<Doc> items_;
};

}  // namespace sollens::solar
