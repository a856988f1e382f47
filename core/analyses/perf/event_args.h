#pragma once
// What the perf models read from an event's args: the shape/type lists of the cpu_op
// (nested int lists, dtype strings, Concrete Inputs strings) as Python values.
#include "base/py_value.h"

namespace sollens::perf {

// None where the key is absent.
struct EventArgs {
  PyValue dims, types, strides, concrete;  // "Input Dims", "Input type", "Input Strides", "Concrete Inputs"
  PyValue output_type;                     // "Output type"
};

}  // namespace sollens::perf
