#include "analyses/solar/solar_doc.h"

#include <cmath>
#include <cstdint>

#include "base/json_text.h"
#include "base/number_format.h"

namespace sollens::solar {

Doc Doc::number(double v) {
  Doc d(Kind::kNumber);
  d.number_ = v;
  return d;
}

Doc Doc::text(std::string v) {
  Doc d(Kind::kText);
  d.text_ = std::move(v);
  return d;
}

Doc Doc::boolean(bool v) {
  Doc d(Kind::kBool);
  d.number_ = v ? 1 : 0;
  return d;
}

Doc& Doc::set(std::string key, Doc value) {
  members_.emplace_back(std::move(key), std::move(value));
  return members_.back().second;
}

Doc& Doc::push(Doc value) {
  items_.push_back(std::move(value));
  return items_.back();
}

// Whole numbers below 2^53 print as integers; others as Python's repr of the float;
// NaN and infinities (which JSON lacks) as null.
std::string Doc::scalar() const {
  switch (kind_) {
    case Kind::kNull: return "null";
    case Kind::kBool: return number_ != 0 ? "true" : "false";
    case Kind::kText: return json_string(text_);
    case Kind::kNumber:
      if (!std::isfinite(number_)) return "null";
      if (number_ == std::floor(number_) && std::fabs(number_) < 9007199254740992.0)
        return std::to_string(static_cast<int64_t>(number_));
      return format_python_float(number_);
    default: return "";
  }
}

void Doc::append_json(std::string& out) const {
  if (kind_ == Kind::kObject) {
    out += '{';
    for (size_t i = 0; i < members_.size(); ++i) {
      if (i) out += ", ";
      out += json_string(members_[i].first);
      out += ": ";
      members_[i].second.append_json(out);
    }
    out += '}';
  } else if (kind_ == Kind::kArray) {
    out += '[';
    for (size_t i = 0; i < items_.size(); ++i) {
      if (i) out += ", ";
      items_[i].append_json(out);
    }
    out += ']';
  } else {
    out += scalar();
  }
}

std::string Doc::json() const {
  std::string out;
  append_json(out);
  out += '\n';
  return out;
}

// Block style; keys and strings are JSON-quoted, which YAML reads as the same text.
void Doc::append_yaml(std::string& out, int indent) const {
  const std::string pad(static_cast<size_t>(indent), ' ');
  if (kind_ == Kind::kObject) {
    for (const auto& [key, value] : members_) {
      out += pad + json_string(key) + ":";
      const bool empty_container = value.is_container() && value.members_.empty() &&
                                   value.items_.empty();
      if (value.is_container() && !empty_container) {
        out += '\n';
        value.append_yaml(out, indent + 2);
      } else {
        out += ' ' + (empty_container ? (value.kind_ == Kind::kObject ? "{}" : "[]")
                                      : value.scalar()) +
               '\n';
      }
    }
  } else if (kind_ == Kind::kArray) {
    for (const Doc& item : items_) {
      if (item.is_container()) {
        std::string inner;
        item.append_yaml(inner, indent + 2);
        // The first line of the item follows the dash.
        out += pad + "- " + (inner.size() >= pad.size() + 2 ? inner.substr(pad.size() + 2) : inner);
      } else {
        out += pad + "- " + item.scalar() + '\n';
      }
    }
  } else {
    out += pad + scalar() + '\n';
  }
}

std::string Doc::yaml() const {
  std::string out;
  append_yaml(out, 0);
  return out;
}

}  // namespace sollens::solar
