#include "analyses/perf/model_registry.h"

#include <type_traits>
#include <unordered_map>

namespace sollens::perf {

namespace {

// Evaluate functions come in two shapes: per family (the model picks the variant) and
// per model; both are called as (Model, ModelInput).
template <auto Evaluate>
ModelResult evaluate_as(Model m, const ModelInput& in) {
  if constexpr (std::is_invocable_v<decltype(Evaluate), Model, const ModelInput&>) {
    return Evaluate(m, in);
  } else {
    (void)m;
    return Evaluate(in);
  }
}

constexpr FamilyInfo kFamilies[] = {
#define SOLLENS_FAMILY_INFO(family, name, sheets, linked_bwd_rows, reads_kernel_names) \
  {Family::family, name, SheetSplit::sheets, linked_bwd_rows, reads_kernel_names},
    SOLLENS_PERF_FAMILIES(SOLLENS_FAMILY_INFO)
#undef SOLLENS_FAMILY_INFO
};

#define SOLLENS_MODEL_OPS(model, family, evaluate, bwd_category, is_bwd_model, ...) \
  constexpr std::string_view k##model##Ops[] = {__VA_ARGS__};
SOLLENS_PERF_MODELS(SOLLENS_MODEL_OPS)
#undef SOLLENS_MODEL_OPS

constexpr PerfModelEntry kModels[] = {
#define SOLLENS_MODEL_ENTRY(model, family, evaluate, bwd_category, is_bwd_model, ...)                    \
  {Model::model, std::string_view(#model).substr(1), Family::family, &evaluate_as<evaluate>, bwd_category, \
   is_bwd_model, k##model##Ops},
    SOLLENS_PERF_MODELS(SOLLENS_MODEL_ENTRY)
#undef SOLLENS_MODEL_ENTRY
};

// Both tables are indexed by their enum.
constexpr bool indexed_by_enum() {
  for (size_t i = 0; i < std::size(kFamilies); ++i)
    if (static_cast<size_t>(kFamilies[i].family) != i) return false;
  for (size_t i = 0; i < std::size(kModels); ++i)
    if (static_cast<size_t>(kModels[i].model) != i) return false;
  return true;
}
static_assert(indexed_by_enum());

}  // namespace

const PerfModelEntry* find_perf_model(std::string_view op) {
  static const auto* map = [] {
    auto* m = new std::unordered_map<std::string_view, const PerfModelEntry*>();
    for (const PerfModelEntry& model : kModels)
      if (kFamilies[static_cast<size_t>(model.family)].sheets != SheetSplit::kNoSheetPrefixOps)
        for (std::string_view name : model.ops) m->emplace(name, &model);
    return m;
  }();
  auto it = map->find(op);
  if (it != map->end()) return it->second;
  for (const PerfModelEntry& model : kModels)
    if (perf_family(model.family).sheets == SheetSplit::kNoSheetPrefixOps)
      for (std::string_view prefix : model.ops)
        if (op.starts_with(prefix)) return &model;
  return nullptr;
}

const PerfModelEntry& perf_model(Model model) { return kModels[static_cast<size_t>(model)]; }
const FamilyInfo& perf_family(Family family) { return kFamilies[static_cast<size_t>(family)]; }
std::span<const PerfModelEntry> perf_models() { return kModels; }
std::span<const FamilyInfo> perf_families() { return kFamilies; }

std::string perf_sheet_name(const PerfModelEntry& model, bool bwd_row) {
  const FamilyInfo& family = perf_family(model.family);
  if (family.sheets == SheetSplit::kOneSheet) return std::string(family.name);
  if (family.sheets == SheetSplit::kNoSheetPrefixOps) return "";
  return std::string(family.name) + (bwd_row || model.is_bwd_model ? "_bwd" : "_fwd");
}

std::vector<std::string> perf_sheet_names() {
  std::vector<std::string> names;
  for (const FamilyInfo& family : kFamilies) {
    if (family.sheets == SheetSplit::kOneSheet) {
      names.emplace_back(family.name);
    } else if (family.sheets == SheetSplit::kFwdBwdSheets) {
      names.push_back(std::string(family.name) + "_fwd");
      names.push_back(std::string(family.name) + "_bwd");
    }
  }
  return names;
}

ModelResult evaluate(Model m, const ModelInput& in) { return perf_model(m).evaluate(m, in); }

}  // namespace sollens::perf
