#pragma once
// SOL only: TraceLens's elementwise models read "Input Strides", which traces from
// PyTorch 1.x lack, and skip the op (parity keeps that). The bytes such a kernel moves are
// elements × size of each input and the output, whatever the strides, so the SOL
// evaluates the same model again with contiguous strides.
#include <optional>

#include "analyses/perf/modeled_ops.h"

namespace sollens {

// The unary / binary elementwise model's result with contiguous strides filled in, when
// `eval` failed for want of "Input Strides"; nullopt for any other op or failure.
std::optional<perf::ModelResult> elementwise_assuming_contiguous(const ModelEval& eval,
                                                                 const ModeledOps& modeled);

}  // namespace sollens
