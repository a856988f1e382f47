#pragma once
// TraceLens's compare semantics for one sheet of two reports (the first is the
// baseline): an outer merge on key columns, every other column prefixed `<tag>::`,
// `<metric>__<tag>_diff` (variant − baseline) and `<metric>__<tag>_pct`
// (100 · diff / baseline, empty where the baseline is 0 or missing), and for the
// per-op sheets the split into `_intersect_` / `_only_baseline_` / `_only_variant_`.
#include <optional>
#include <string>
#include <vector>

#include "table/table.h"

namespace sollens {

struct SheetCompareSpec {
  std::vector<std::string> keys;
  std::vector<std::string> diff_columns;   // the first decides the split
  std::vector<std::string> drop_columns;   // from both reports
  std::vector<std::string> drop_variant;   // from the variant only
  std::string sort_column;                 // descending, empty last; "" keeps merge order
};

struct CompareTags {
  std::string baseline = "baseline";
  std::string variant = "variant";
};

// The merged sheet: keys, diff/pct columns, baseline columns, variant columns; rows in
// key order (pandas' outer merge: keys sorted, equal keys paired every with every),
// then sorted by the baseline's sort column when one is given. nullopt when a key
// column is missing from either report.
std::optional<Table> compare_sheet(const Table& baseline, const Table& variant,
                                   const SheetCompareSpec& spec, const CompareTags& tags,
                                   const std::string& name);

// The three split sheets `<name>_intersect_<tag>`, `<name>_only_baseline_<tag>`,
// `<name>_only_variant_<tag>` of a merged sheet: rows by whether both, only the
// baseline or only the variant have the first diff column; each keeps the keys and
// its reports' columns, and drops columns that are empty in every row.
std::vector<Table> split_compared_sheet(const Table& merged, const SheetCompareSpec& spec,
                                        const CompareTags& tags, const std::string& name);

// Text of a cell as a key: numbers in Python's repr, booleans True/False; "" for null.
std::string cell_text(const Column& column, size_t row);
// A numeric cell's value; nullopt for null, text and NaN.
std::optional<double> cell_number(const Column& column, size_t row);

}  // namespace sollens
