#include "analyses/diff/report_compare.h"

#include <algorithm>

namespace sollens {

namespace {

struct NamedSpec {
  const char* sheet;
  SheetCompareSpec spec;
};

const std::vector<NamedSpec>& summary_specs() {
  static const std::vector<NamedSpec> specs = {
      {"gpu_timeline", {{"type"}, {"time ms"}, {}, {}, ""}},
      {"ops_summary",
       {{"name"}, {"total_direct_kernel_time_ms", "Count"}, {"total_direct_kernel_time_sum"},
        {"Cumulative Percentage (%)"}, "total_direct_kernel_time_ms"}},
      {"kernel_summary",
       {{"Kernel name"},
        {"Kernel duration (µs)_sum", "Kernel duration (µs)_mean", "Kernel duration (µs)_count"},
        {"Kernel duration (µs)_min", "Kernel duration (µs)_max", "Parent op category"},
        {"Cumulative Percentage (%)"},
        "Kernel duration (µs)_sum"}},
  };
  return specs;
}

const std::vector<std::string> kArgKeys = {"name", "Input type", "Input Dims", "Input Strides",
                                           "Concrete Inputs"};

// The per-op sheets, keyed by name and arguments.
const std::vector<NamedSpec>& op_sheet_specs() {
  static const std::vector<NamedSpec> specs = {
      {"ops_unique_args",
       {kArgKeys,
        {"total_direct_kernel_time_sum", "total_direct_kernel_time_mean", "operation_count"},
        {}, {}, "total_direct_kernel_time_sum"}},
      {"unified_perf_summary",
       {kArgKeys, {"Kernel Time (µs)_sum", "Kernel Time (µs)_mean", "operation_count"}, {}, {},
        "Kernel Time (µs)_sum"}},
  };
  return specs;
}

struct RooflineSheet {
  const char* sheet;
  const char* short_name;
};
constexpr RooflineSheet kRooflineSheets[] = {
    {"GEMM", "GEMM"},         {"SDPA_fwd", "SDPA_fwd"}, {"SDPA_bwd", "SDPA_bwd"},
    {"CONV_fwd", "CONV_fwd"}, {"CONV_bwd", "CONV_bwd"}, {"UnaryElementwise", "un_eltwise"},
    {"BinaryElementwise", "bin_eltwise"},
};

// Roofline sheets: keyed by name and the baseline's `param:` columns; the variant's
// per-shape constants (same for both runs) are not repeated.
SheetCompareSpec roofline_spec(const Table& baseline) {
  SheetCompareSpec spec;
  spec.keys = {"name"};
  for (size_t c = 0; c < baseline.num_columns(); ++c)
    if (baseline.column(c).name().starts_with("param:")) spec.keys.push_back(baseline.column(c).name());
  spec.diff_columns = {"Kernel Time (µs)_sum", "Kernel Time (µs)_mean", "name_count", "TFLOPS/s_mean",
                       "TB/s_mean"};
  spec.drop_variant = {"GFLOPS_first",   "Data Moved (MB)_first", "FLOPS/Byte_first",
                       "Input type_first", "Input Dims_first",     "Input Strides_first",
                       "Concrete Inputs_first"};
  spec.sort_column = "Kernel Time (µs)_sum";
  return spec;
}

void append_split(const Table& base, const Table& var, const SheetCompareSpec& spec,
                  const CompareTags& tags, const std::string& name, std::vector<Table>& out) {
  if (base.num_rows() == 0 || var.num_rows() == 0) return;
  const auto merged = compare_sheet(base, var, spec, tags, name);
  if (!merged) return;
  for (Table& t : split_compared_sheet(*merged, spec, tags, name)) out.push_back(std::move(t));
}

}  // namespace

const SheetCompareSpec* summary_sheet_spec(const std::string& sheet) {
  for (const NamedSpec& s : summary_specs())
    if (sheet == s.sheet) return &s.spec;
  return nullptr;
}

std::vector<Table> compare_reports(const std::vector<Table>& baseline, const std::vector<Table>& variant,
                                   const CompareTags& tags) {
  std::vector<Table> out;
  for (const NamedSpec& s : summary_specs()) {
    const Table* b = find_sheet(baseline, s.sheet);
    const Table* v = find_sheet(variant, s.sheet);
    if (!b || !v) continue;
    if (auto t = compare_sheet(*b, *v, s.spec, tags, s.sheet)) out.push_back(std::move(*t));
  }
  for (const NamedSpec& s : op_sheet_specs()) {
    const Table* b = find_sheet(baseline, s.sheet);
    const Table* v = find_sheet(variant, s.sheet);
    if (b && v) append_split(*b, *v, s.spec, tags, s.sheet, out);
  }
  for (const RooflineSheet& r : kRooflineSheets) {
    const Table* b = find_sheet(baseline, r.sheet);
    const Table* v = find_sheet(variant, r.sheet);
    if (b && v) append_split(*b, *v, roofline_spec(*b), tags, r.short_name, out);
  }
  return out;
}

}  // namespace sollens
