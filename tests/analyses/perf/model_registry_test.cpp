// The perf-model registry generated from model_list.h: every model reachable from its
// op names, every op name known to the op map, every model's rows on a listed sheet.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <string>

#include "analyses/ops/op_categories.h"
#include "analyses/perf/model_registry.h"

using namespace sollens::perf;

namespace {

const PerfModelEntry& model_of(std::string_view op) {
  const PerfModelEntry* model = find_perf_model(op);
  REQUIRE(model != nullptr);
  return *model;
}

}  // namespace

TEST_CASE("perf registry: every model is found by each of its op names", "[perf][registry]") {
  std::set<std::string_view> seen;
  for (const PerfModelEntry& model : perf_models()) {
    INFO(model.name);
    CHECK(&perf_model(model.model) == &model);
    CHECK(model.evaluate != nullptr);
    REQUIRE_FALSE(model.ops.empty());
    const bool prefixes = perf_family(model.family).sheets == SheetSplit::kNoSheetPrefixOps;
    for (std::string_view op : model.ops) {
      INFO(op);
      CHECK(seen.insert(op).second);  // one model per op name
      const PerfModelEntry* found = find_perf_model(prefixes ? std::string(op) + "fused_add_0" : std::string(op));
      REQUIRE(found != nullptr);
      CHECK(found->model == model.model);
    }
  }
  CHECK(find_perf_model("aten::not_an_op") == nullptr);
  CHECK(find_perf_model("triton_tem_fused_mm_0") == nullptr);  // only poi/red/per kernels are modeled
}

TEST_CASE("perf registry: every op name is a modeled op of the op map", "[perf][registry]") {
  // A typo in model_list.h would leave the op unmodeled without this check.
  for (const PerfModelEntry& model : perf_models()) {
    if (perf_family(model.family).sheets == SheetSplit::kNoSheetPrefixOps) continue;  // prefixes, not names
    for (std::string_view op : model.ops) {
      INFO(op);
      const auto entry = sollens::find_op_registry_entry(op);
      REQUIRE(entry.has_value());
      CHECK(entry->has_perf_model);
    }
  }
}

TEST_CASE("perf registry: every op TraceLens models has a model", "[perf][registry]") {
  // The op map's entries (tracelens-semantics.md §7) flagged with a perf model.
  constexpr sollens::OpRegistryEntry kOpMap[] = {
#include "analyses/ops/op_registry_table.inc"
  };
  for (const sollens::OpRegistryEntry& op : kOpMap) {
    if (!op.has_perf_model) continue;
    INFO(op.name);
    CHECK(find_perf_model(op.name) != nullptr);
  }
}

TEST_CASE("perf registry: every model's rows land on a sheet of the report", "[perf][registry]") {
  const std::vector<std::string> sheets = perf_sheet_names();
  auto listed = [&](const std::string& sheet) { return std::find(sheets.begin(), sheets.end(), sheet) != sheets.end(); };
  for (const PerfModelEntry& model : perf_models()) {
    INFO(model.name);
    if (perf_family(model.family).sheets == SheetSplit::kNoSheetPrefixOps) {
      CHECK(perf_sheet_name(model, false) == "");
      continue;
    }
    CHECK(listed(perf_sheet_name(model, false)));
    if (perf_family(model.family).linked_bwd_rows) CHECK(listed(perf_sheet_name(model, true)));
  }
}

TEST_CASE("perf registry: every family has a model", "[perf][registry]") {
  for (const FamilyInfo& family : perf_families()) {
    INFO(family.name);
    CHECK(std::any_of(perf_models().begin(), perf_models().end(),
                      [&](const PerfModelEntry& m) { return m.family == family.family; }));
  }
}

TEST_CASE("perf registry: sheet names and order", "[perf][registry]") {
  // TraceLens's perf-model sheets (tracelens-semantics.md §4.7) in the report's order.
  const std::vector<std::string> expected = {
      "GEMM",         "SDPA_fwd",     "SDPA_bwd",    "CONV_fwd",         "CONV_bwd",         "UnaryElementwise",
      "BinaryElementwise", "Normalization", "Reduce_fwd", "Reduce_bwd", "InferenceAttention_fwd",
      "InferenceAttention_bwd", "GroupedGEMM_fwd", "GroupedGEMM_bwd",
      "MoE_comm_fwd", "MoE_comm_bwd", "SSM_fwd",      "SSM_bwd",      "RoPE_fwd",    "RoPE_bwd",
      "CrossEntropy_fwd", "CrossEntropy_bwd", "MoE_fused_fwd", "MoE_fused_bwd", "MoE_unfused_fwd", "MoE_unfused_bwd",
      "MoE_aux_fwd", "MoE_aux_bwd", "RMSNorm_fwd", "RMSNorm_bwd", "elementwise_fwd", "elementwise_bwd",
      "GroupQuant_fwd", "GroupQuant_bwd", "FusedRoPE_fwd", "FusedRoPE_bwd", "CustomCollective_fwd",
      "CustomCollective_bwd", "mHC_fwd", "mHC_bwd"};
  CHECK(perf_sheet_names() == expected);
  CHECK(perf_sheet_name(model_of("aten::mm"), false) == "GEMM");
  CHECK(perf_sheet_name(model_of("aten::convolution_backward"), false) == "CONV_bwd");
  CHECK(perf_sheet_name(model_of("aten::_scaled_dot_product_flash_attention"), true) == "SDPA_bwd");
  CHECK(perf_sheet_name(model_of("aten::sum"), false) == "Reduce_fwd");
  CHECK(perf_sheet_name(model_of("aiter::rms_norm"), false) == "RMSNorm_fwd");
  CHECK(perf_sheet_name(model_of("vllm::unified_attention_with_output"), false) == "InferenceAttention_fwd");
  CHECK(perf_sheet_name(model_of("triton_red_fused_add_mean_0"), false) == "");
}

TEST_CASE("perf registry: families' bwd rows and kernel-name keys", "[perf][registry]") {
  // §4.7: single-table families, CONV (whose bwd rows are convolution_backward ops) and
  // the sheetless Triton ops take no linked-backward rows; only GEMM reads kernel names (transpose flags).
  for (const FamilyInfo& family : perf_families()) {
    INFO(family.name);
    const bool split = family.sheets == SheetSplit::kFwdBwdSheets;
    CHECK(family.linked_bwd_rows == (split && family.name != "CONV"));
    CHECK(family.reads_kernel_names == (family.name == "GEMM"));
  }
}
