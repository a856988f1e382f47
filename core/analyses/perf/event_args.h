#pragma once
// What the perf models read from an event's args: the shape/type lists of the cpu_op
// (nested int lists, dtype strings, Concrete Inputs strings) as Python values.
#include "base/py_value.h"

namespace sollens::perf {

// None where the key is absent.
struct EventArgs {
  PyValue dims, types, strides, concrete;  // "Input Dims", "Input type", "Input Strides", "Concrete Inputs"
  PyValue output_type;                     // "Output type"
  // What TraceLens's pseudo-op pass adds to the MoE pseudo ops it creates.
  PyValue moe_topk, moe_gemm_gated;        // "MoE topk", "MoE GEMM gated"
};

}  // namespace sollens::perf
