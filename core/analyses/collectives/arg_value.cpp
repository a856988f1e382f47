#include "analyses/collectives/arg_value.h"

#include "base/number_format.h"

namespace sollens::collectives {

std::string ArgValue::cell_text() const {
  switch (kind) {
    case Kind::kNone: return "";
    case Kind::kBool: return i ? "True" : "False";
    case Kind::kInt: return std::to_string(i);
    case Kind::kFloat: return format_python_float(f);
    case Kind::kStr:
    case Kind::kOther: return text;
  }
  return "";
}

bool same_key(const ArgValue& a, const ArgValue& b) {
  if (a.is_number() || b.is_number()) return a.is_number() && b.is_number() && a.number() == b.number();
  return a.kind == b.kind && a.text == b.text;
}

int compare_keys(const ArgValue& a, const ArgValue& b) {
  auto rank = [](const ArgValue& v) { return v.is_number() ? 0 : v.kind == ArgValue::Kind::kStr ? 1 : 2; };
  if (rank(a) != rank(b)) return rank(a) < rank(b) ? -1 : 1;
  if (a.is_number()) return a.number() < b.number() ? -1 : b.number() < a.number() ? 1 : 0;
  // UTF-8 byte order is code-point order, as Python compares str.
  const int c = a.text.compare(b.text);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

void DtypeInference::add(const ArgValue& v) {
  switch (v.kind) {
    case ArgValue::Kind::kNone: any_none_ = true; break;
    case ArgValue::Kind::kBool: any_bool_ = true; break;
    case ArgValue::Kind::kInt: any_int_ = true; break;
    case ArgValue::Kind::kFloat: any_float_ = true; break;
    case ArgValue::Kind::kStr:
    case ArgValue::Kind::kOther: any_other_ = true; break;
  }
}

ColumnDtype DtypeInference::dtype() const {
  if (any_other_ || (any_bool_ && (any_int_ || any_float_ || any_none_))) return ColumnDtype::kObject;
  if (any_bool_) return ColumnDtype::kBool;
  if (any_float_) return ColumnDtype::kFloat;
  if (any_int_) return any_none_ ? ColumnDtype::kFloat : ColumnDtype::kInt;
  return ColumnDtype::kObject;  // every value missing
}

}  // namespace sollens::collectives
