#include "analyses/collectives/group_key.h"

namespace sollens::collectives {

using Kind = PyValue::Kind;

bool is_number(const PyValue& v) { return v.kind == Kind::kInt || v.kind == Kind::kFloat || v.kind == Kind::kBool; }

double number(const PyValue& v) {
  return v.kind == Kind::kFloat ? v.f : v.kind == Kind::kBool ? (v.b ? 1.0 : 0.0) : static_cast<double>(v.i);
}

std::string cell_text(const PyValue& v) { return v.is_none() ? std::string() : str(v); }

bool same_key(const PyValue& a, const PyValue& b) {
  if (is_number(a) || is_number(b)) return is_number(a) && is_number(b) && number(a) == number(b);
  if (a.kind == Kind::kNone || b.kind == Kind::kNone) return a.kind == b.kind;
  if (a.kind == Kind::kStr || b.kind == Kind::kStr) return a.kind == b.kind && a.s == b.s;
  return repr(a) == repr(b);
}

int compare_keys(const PyValue& a, const PyValue& b) {
  auto rank = [](const PyValue& v) { return is_number(v) ? 0 : v.kind == Kind::kStr ? 1 : 2; };
  if (rank(a) != rank(b)) return rank(a) < rank(b) ? -1 : 1;
  if (is_number(a)) return number(a) < number(b) ? -1 : number(b) < number(a) ? 1 : 0;
  // UTF-8 byte order is code-point order, as Python compares str.
  const int c = rank(a) == 1 ? a.s.compare(b.s) : cell_text(a).compare(cell_text(b));
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

void DtypeInference::add(const PyValue& v) {
  switch (v.kind) {
    case Kind::kNone: any_none_ = true; break;
    case Kind::kBool: any_bool_ = true; break;
    case Kind::kInt: any_int_ = true; break;
    case Kind::kFloat: any_float_ = true; break;
    default: any_other_ = true; break;
  }
}

ColumnDtype DtypeInference::dtype() const {
  if (any_other_ || (any_bool_ && (any_int_ || any_float_ || any_none_))) return ColumnDtype::kObject;
  if (any_bool_) return ColumnDtype::kBool;
  if (any_float_) return ColumnDtype::kFloat;
  if (any_int_) return any_none_ ? ColumnDtype::kFloat : ColumnDtype::kInt;
  return ColumnDtype::kObject;  // every value missing
}

ColumnType column_type(ColumnDtype dtype) {
  switch (dtype) {
    case ColumnDtype::kInt: return ColumnType::kInt;
    case ColumnDtype::kFloat: return ColumnType::kFloat;
    case ColumnDtype::kBool: return ColumnType::kBool;
    case ColumnDtype::kObject: return ColumnType::kString;
  }
  return ColumnType::kString;
}

void push_key(Column& c, ColumnDtype dtype, const PyValue& v) {
  switch (dtype) {
    case ColumnDtype::kInt: c.push_int(v.i); return;
    case ColumnDtype::kFloat: c.push_float(number(v)); return;
    case ColumnDtype::kBool: c.push_bool(v.b); return;
    case ColumnDtype::kObject: c.push_string(cell_text(v)); return;
  }
}

}  // namespace sollens::collectives
