#include "table/document.h"

namespace sollens {

Document Document::number(double v) {
  Document d(Kind::kNumber);
  d.number_ = v;
  return d;
}

Document Document::text(std::string v) {
  Document d(Kind::kText);
  d.text_ = std::move(v);
  return d;
}

Document Document::boolean(bool v) {
  Document d(Kind::kBool);
  d.flag_ = v;
  return d;
}

Document& Document::set(std::string key, Document value) {
  members_.emplace_back(std::move(key), std::move(value));
  return members_.back().second;
}

Document& Document::push(Document value) {
  items_.push_back(std::move(value));
  return items_.back();
}

}  // namespace sollens
