#pragma once
// The ATen ops a torch.compile Triton kernel fused, read from its name
// ("triton_poi_fused_add_mul_native_layer_norm_0" → add, mul, native_layer_norm), and the
// FLOPs per element TraceLens counts for each.
#include <string_view>
#include <vector>

namespace sollens::perf {

// The op names between "triton_{poi,red,per}_fused_" and the trailing "_<digits>", in
// order; empty when the name has no such part. The words are split into names of the
// ATen operator registry (aten_operators.inc) joined by '_', with the fewest names
// (the longest matches; on a tie, the longer first name). When no such split covers
// every word, TraceLens's fallback: from the left, the longest name of the FLOPs table
// that starts the rest (followed by '_' or the end) is taken, else one word is skipped.
std::vector<std::string_view> fused_aten_ops(std::string_view kernel_name);

// FLOPs per element of a fused op as TraceLens counts them; 0 for ops it does not list.
int fused_op_flops_per_element(std::string_view op);

}  // namespace sollens::perf
