#pragma once
// What every GEMM model shares (tracelens-semantics.md §6.2): the params TraceLens's GEMM
// base class appends after a model's own (`B` = 1 when the model sets none, then
// `transpose` from the first kernel name that parses) and the base FLOP and byte counts.
#include <optional>
#include <span>
#include <string_view>

#include "analyses/perf/perf_model.h"

namespace sollens::perf {

// Appends `B` (when absent) and `transpose` (when a kernel name parses) to r.params.
void add_gemm_tail_params(ModelResult& r, std::span<const std::string_view> kernel_names);

// GEMM.flops_func: 2·M·N·K, plus M·N with a bias.
int64_t gemm_flops(int64_t M, int64_t N, int64_t K, bool bias);

// Bytes per element as the GEMM models pass them: an int from name2bpe, 0.5 for a packed
// FP4 operand, or None.
using Bpe = std::optional<double>;
Bpe bpe_of(const PyValue& dtype);

// GEMM.bytes_func: M·K·a + K·N·b + M·N·out + (N·bias_bpe with a bias), times `batch`
// (the batched models scale their per-batch bytes); None when any bpe is None. A
// Python float when a bpe is fractional.
std::optional<Count> gemm_bytes(int64_t M, int64_t N, int64_t K, bool bias, Bpe a, Bpe b, Bpe bias_bpe, Bpe out,
                                int64_t batch = 1);

}  // namespace sollens::perf
