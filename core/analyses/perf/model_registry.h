#pragma once
// Op name → perf model (tracelens-semantics.md §7) for the models sollens implements,
// with each model's evaluate function, sheet family and bwd category, all generated
// from model_list.h. The op category itself stays in analyses/ops/op_registry_table.inc
// (find_op_registry_entry), which lists every op TraceLens models; ops of the map whose
// model is not implemented yet have no entry here.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/perf/models.h"

namespace sollens::perf {

enum class SheetSplit : uint8_t {
  kOneSheet,      // one sheet named after the family
  kFwdBwdSheets,  // <family>_fwd and <family>_bwd
  kNoSheetPrefixOps,  // no sheet; the models' op names are name prefixes
};

struct FamilyInfo {
  Family family;
  std::string_view name;  // GEMM, SDPA, CONV, UnaryElementwise, ...
  SheetSplit sheets;
  bool linked_bwd_rows;     // forward ops get a bwd row over their 1:1-linked backward subtree
  bool reads_kernel_names;  // evaluations depend on the op's kernel names
};

struct PerfModelEntry {
  Model model;
  std::string_view name;  // the enumerator without its k: "Mm", "SdpaFlash", ...
  Family family;
  ModelResult (*evaluate)(Model, const ModelInput&);
  std::string_view bwd_category;  // "" when the model defines none
  bool is_bwd_model;              // its own flops() are backward: CONV_bwd / SDPA_bwd sheet
  std::span<const std::string_view> ops;
};

// The model evaluating `op` (by its exact name, else by a prefix of a
// kNoSheetPrefixOps family), or null.
const PerfModelEntry* find_perf_model(std::string_view op);
const PerfModelEntry& perf_model(Model model);
const FamilyInfo& perf_family(Family family);
// Every model / family, in model_list.h's order (families: the sheets' order).
std::span<const PerfModelEntry> perf_models();
std::span<const FamilyInfo> perf_families();

// The sheet a row of `model` goes to ("" for none); `bwd_row`: a linked-backward row.
std::string perf_sheet_name(const PerfModelEntry& model, bool bwd_row);
// Every perf-model sheet name, in report order.
std::vector<std::string> perf_sheet_names();

}  // namespace sollens::perf
