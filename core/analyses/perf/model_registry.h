#pragma once
// Op name → perf model (tracelens-semantics.md §7) for the models sollens implements,
// with the sheet family and the bwd category. The op category itself stays in
// analyses/ops/op_registry_table.inc (find_op_registry_entry), which lists every op
// TraceLens models; ops of the map whose model is not implemented yet have no entry here.
#include <span>
#include <string_view>

#include "analyses/perf/models.h"

namespace sollens::perf {

struct PerfModelEntry {
  std::string_view op;
  Model model;
  std::string_view family;        // GEMM, SDPA, CONV, UnaryElementwise, BinaryElementwise, Normalization, Reduce,
                                  // MoE_comm, SSM, RoPE, CrossEntropy
  std::string_view bwd_category;  // "" when the model defines none
  bool is_bwd_model;              // its own flops() are backward: CONV_bwd / SDPA_bwd sheet
};

const PerfModelEntry* find_perf_model(std::string_view op);
// Every entry, in the map's order.
std::span<const PerfModelEntry> perf_model_entries();
// GEMM, UnaryElementwise, BinaryElementwise, Normalization: one sheet; others _fwd/_bwd.
bool is_single_table_family(std::string_view family);

}  // namespace sollens::perf
