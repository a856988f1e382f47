#include "analyses/diff/table_compare.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "base/number_format.h"

namespace sollens {

std::string cell_text(const Column& column, size_t row) {
  if (column.is_null(row)) return "";
  switch (column.type()) {
    case ColumnType::kString: return column.string_at(row);
    case ColumnType::kInt: return std::to_string(column.int_at(row));
    case ColumnType::kFloat: return format_python_float(column.float_at(row));
    case ColumnType::kBool: return column.bool_at(row) ? "True" : "False";
  }
  return "";
}

std::optional<double> cell_number(const Column& column, size_t row) {
  if (column.is_null(row)) return std::nullopt;
  switch (column.type()) {
    case ColumnType::kString: return std::nullopt;
    case ColumnType::kInt: return static_cast<double>(column.int_at(row));
    case ColumnType::kBool: return column.bool_at(row) ? 1.0 : 0.0;
    case ColumnType::kFloat: {
      const double v = column.float_at(row);
      return std::isnan(v) ? std::nullopt : std::optional<double>(v);
    }
  }
  return std::nullopt;
}

namespace {

// The texts pandas reads back from a workbook as NaN (read_excel's default na_values),
// as TraceLens's compare reads the reports: a cell "None" (an absent stride) is missing.
bool reads_back_missing(std::string_view text) {
  static constexpr std::array<std::string_view, 19> kMissing = {
      "",     "#N/A", "#N/A N/A", "#NA",  "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
      "<NA>", "N/A",  "NA",       "NULL", "NaN",     "None",     "n/a",  "nan",  "null"};
  return std::find(kMissing.begin(), kMissing.end(), text) != kMissing.end();
}

bool missing_text(const Column& column, size_t row) {
  return column.type() == ColumnType::kString && reads_back_missing(column.string_at(row));
}

// A key cell as pandas compares it after reading a report back: missing text (above) is
// NaN, numbers compare as numbers, missing sorts last and equals missing.
struct KeyCell {
  bool missing = true;
  bool numeric = false;
  double number = 0;
  std::string text;
};

KeyCell key_cell(const Column& column, size_t row) {
  KeyCell k;
  if (column.is_null(row)) return k;
  if (const auto n = cell_number(column, row); n && column.type() != ColumnType::kBool) {
    k.missing = false;
    k.numeric = true;
    k.number = *n;
    return k;
  }
  k.text = cell_text(column, row);
  k.missing = reads_back_missing(k.text);
  return k;
}

int compare_cells(const KeyCell& a, const KeyCell& b) {
  if (a.missing || b.missing) return a.missing == b.missing ? 0 : (a.missing ? 1 : -1);
  if (a.numeric != b.numeric) return a.numeric ? -1 : 1;
  if (a.numeric) return a.number < b.number ? -1 : (a.number > b.number ? 1 : 0);
  const int c = a.text.compare(b.text);
  return c < 0 ? -1 : c > 0 ? 1 : 0;
}

using KeyTuple = std::vector<KeyCell>;

int compare_tuples(const KeyTuple& a, const KeyTuple& b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (const int c = compare_cells(a[i], b[i])) return c;
  return 0;
}

std::vector<KeyTuple> key_tuples(const Table& t, const std::vector<const Column*>& keys) {
  std::vector<KeyTuple> out(t.num_rows());
  for (size_t r = 0; r < t.num_rows(); ++r)
    for (const Column* k : keys) out[r].push_back(key_cell(*k, r));
  return out;
}

std::vector<size_t> sorted_rows(const std::vector<KeyTuple>& tuples) {
  std::vector<size_t> rows(tuples.size());
  for (size_t i = 0; i < rows.size(); ++i) rows[i] = i;
  std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
    return compare_tuples(tuples[a], tuples[b]) < 0;
  });
  return rows;
}

constexpr int64_t kAbsent = -1;
struct RowPair {
  int64_t baseline = kAbsent;
  int64_t variant = kAbsent;
};

// pandas' outer merge: keys in sorted order; rows with equal keys paired each with each.
std::vector<RowPair> outer_merge(const std::vector<KeyTuple>& base, const std::vector<KeyTuple>& var) {
  const std::vector<size_t> a = sorted_rows(base), b = sorted_rows(var);
  std::vector<RowPair> out;
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    const int c = i == a.size() ? 1 : j == b.size() ? -1 : compare_tuples(base[a[i]], var[b[j]]);
    if (c < 0) {
      out.push_back({static_cast<int64_t>(a[i++]), kAbsent});
    } else if (c > 0) {
      out.push_back({kAbsent, static_cast<int64_t>(b[j++])});
    } else {
      size_t i_end = i, j_end = j;
      while (i_end < a.size() && compare_tuples(base[a[i_end]], base[a[i]]) == 0) ++i_end;
      while (j_end < b.size() && compare_tuples(var[b[j_end]], var[b[j]]) == 0) ++j_end;
      for (size_t x = i; x < i_end; ++x)
        for (size_t y = j; y < j_end; ++y)
          out.push_back({static_cast<int64_t>(a[x]), static_cast<int64_t>(b[y])});
      i = i_end;
      j = j_end;
    }
  }
  return out;
}

void copy_cell(const Column& from, int64_t row, Column& to) {
  if (row == kAbsent || from.is_null(static_cast<size_t>(row)) || missing_text(from, static_cast<size_t>(row))) {
    to.push_null();
    return;
  }
  const size_t r = static_cast<size_t>(row);
  if (to.type() == from.type()) {
    switch (from.type()) {
      case ColumnType::kString: to.push_string(from.string_at(r)); return;
      case ColumnType::kInt: to.push_int(from.int_at(r)); return;
      case ColumnType::kBool: to.push_bool(from.bool_at(r)); return;
      case ColumnType::kFloat: to.push_float(from.float_at(r)); return;
    }
  }
  const auto number = cell_number(from, r);
  if (to.type() == ColumnType::kString) to.push_string(cell_text(from, r));
  else if (!number) to.push_null();
  else if (to.type() == ColumnType::kFloat) to.push_float(*number);
  else if (to.type() == ColumnType::kBool) to.push_bool(*number != 0);
  else to.push_int(static_cast<int64_t>(std::llround(*number)));
}

bool contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

// The columns of one report that follow the keys, after the drops.
std::vector<const Column*> value_columns(const Table& t, const SheetCompareSpec& spec, bool variant) {
  std::vector<const Column*> out;
  for (size_t c = 0; c < t.num_columns(); ++c) {
    const std::string& n = t.column(c).name();
    if (contains(spec.keys, n) || contains(spec.drop_columns, n)) continue;
    if (variant && contains(spec.drop_variant, n)) continue;
    out.push_back(&t.column(c));
  }
  return out;
}

std::optional<double> value_at(const Column* c, int64_t row) {
  if (!c || row == kAbsent) return std::nullopt;
  return cell_number(*c, static_cast<size_t>(row));
}

void sort_descending(std::vector<RowPair>& rows, const Column* column, bool by_variant) {
  if (!column) return;
  std::stable_sort(rows.begin(), rows.end(), [&](const RowPair& a, const RowPair& b) {
    const auto x = value_at(column, by_variant ? a.variant : a.baseline);
    const auto y = value_at(column, by_variant ? b.variant : b.baseline);
    if (!x || !y) return x.has_value() && !y.has_value();
    return *x > *y;
  });
}

std::string diff_name(const std::string& metric, const std::string& tag) { return metric + "__" + tag + "_diff"; }
std::string pct_name(const std::string& metric, const std::string& tag) { return metric + "__" + tag + "_pct"; }

}  // namespace

std::optional<Table> compare_sheet(const Table& baseline, const Table& variant,
                                   const SheetCompareSpec& spec, const CompareTags& tags,
                                   const std::string& name) {
  std::vector<const Column*> base_keys, var_keys;
  for (const std::string& k : spec.keys) {
    base_keys.push_back(baseline.find(k));
    var_keys.push_back(variant.find(k));
    if (!base_keys.back() || !var_keys.back()) return std::nullopt;
  }
  std::vector<RowPair> rows = outer_merge(key_tuples(baseline, base_keys), key_tuples(variant, var_keys));
  const Column* sort_by = spec.sort_column.empty() ? nullptr : baseline.find(spec.sort_column);
  sort_descending(rows, sort_by, false);

  Table out(name, TableKind::kComparison);
  for (size_t k = 0; k < spec.keys.size(); ++k) {
    Column& c = out.add_column(spec.keys[k], base_keys[k]->type(), base_keys[k]->unit());
    for (const RowPair& p : rows)
      copy_cell(p.baseline != kAbsent ? *base_keys[k] : *var_keys[k],
                p.baseline != kAbsent ? p.baseline : p.variant, c);
  }
  for (const std::string& metric : spec.diff_columns) {
    const Column* b = baseline.find(metric);
    const Column* v = variant.find(metric);
    if (!b || !v) continue;
    const Unit unit = b->unit() != Unit::kNone ? b->unit() : v->unit();
    Column& diff = out.add_column(diff_name(metric, tags.variant), ColumnType::kFloat, unit);
    Column& pct = out.add_column(pct_name(metric, tags.variant), ColumnType::kFloat, Unit::kPercent);
    for (const RowPair& p : rows) {
      const auto x = value_at(b, p.baseline), y = value_at(v, p.variant);
      if (!x || !y) {
        diff.push_null();
        pct.push_null();
        continue;
      }
      diff.push_float(*y - *x);
      if (*x == 0) pct.push_null();
      else pct.push_float(100 * ((*y - *x) / *x));
    }
  }
  for (const bool is_variant : {false, true}) {
    const Table& t = is_variant ? variant : baseline;
    const std::string& tag = is_variant ? tags.variant : tags.baseline;
    for (const Column* src : value_columns(t, spec, is_variant)) {
      Column& c = out.add_column(tag + "::" + src->name(), src->type(), src->unit());
      for (const RowPair& p : rows) copy_cell(*src, is_variant ? p.variant : p.baseline, c);
    }
  }
  return out;
}

namespace {

enum class Side : uint8_t { kKey, kBaseline, kVariant, kDiff };

Side side_of(const std::string& column, const CompareTags& tags) {
  if (column.starts_with(tags.baseline + "::")) return Side::kBaseline;
  if (column.starts_with(tags.variant + "::")) return Side::kVariant;
  if (column.ends_with("__" + tags.variant + "_diff") || column.ends_with("__" + tags.variant + "_pct"))
    return Side::kDiff;
  return Side::kKey;
}

bool empty_cell(const Column& c, size_t row) {
  return c.is_null(row) || missing_text(c, row) || (c.type() == ColumnType::kFloat && std::isnan(c.float_at(row)));
}

}  // namespace

std::vector<Table> split_compared_sheet(const Table& merged, const SheetCompareSpec& spec,
                                        const CompareTags& tags, const std::string& name) {
  const std::string& metric = spec.diff_columns.front();
  const Column* base_metric = merged.find(tags.baseline + "::" + metric);
  const Column* var_metric = merged.find(tags.variant + "::" + metric);
  const Column* base_sort = merged.find(tags.baseline + "::" + spec.sort_column);
  const Column* var_sort = merged.find(tags.variant + "::" + spec.sort_column);
  std::vector<RowPair> both, base_only, var_only;
  for (size_t r = 0; r < merged.num_rows(); ++r) {
    const bool in_base = base_metric && !base_metric->is_null(r);
    const bool in_var = var_metric && !var_metric->is_null(r);
    const RowPair row{static_cast<int64_t>(r), static_cast<int64_t>(r)};
    if (in_base && in_var) both.push_back(row);
    else if (in_base) base_only.push_back(row);
    else if (in_var) var_only.push_back(row);
  }
  sort_descending(both, base_sort, false);
  sort_descending(base_only, base_sort, false);
  sort_descending(var_only, var_sort, true);
  const auto indices = [](const std::vector<RowPair>& pairs) {
    std::vector<size_t> out;
    for (const RowPair& p : pairs) out.push_back(static_cast<size_t>(p.baseline));
    return out;
  };
  std::vector<Table> out;
  const auto pick = [&](const std::vector<RowPair>& pairs, std::vector<Side> keep, const std::string& suffix) {
    Table t(name + suffix + tags.variant, TableKind::kComparison);
    const std::vector<size_t> rows = indices(pairs);
    for (size_t c = 0; c < merged.num_columns(); ++c) {
      const Column& src = merged.column(c);
      if (std::find(keep.begin(), keep.end(), side_of(src.name(), tags)) == keep.end()) continue;
      if (std::all_of(rows.begin(), rows.end(), [&](size_t r) { return empty_cell(src, r); })) continue;
      Column& dst = t.add_column(src.name(), src.type(), src.unit());
      for (size_t r : rows) copy_cell(src, static_cast<int64_t>(r), dst);
    }
    out.push_back(std::move(t));
  };
  pick(both, {Side::kKey, Side::kBaseline, Side::kVariant, Side::kDiff}, "_intersect_");
  pick(base_only, {Side::kKey, Side::kBaseline}, "_only_baseline_");
  pick(var_only, {Side::kKey, Side::kVariant, Side::kDiff}, "_only_variant_");
  return out;
}

}  // namespace sollens
