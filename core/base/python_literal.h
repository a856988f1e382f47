#pragma once
// Python's ast.literal_eval for the simple texts TraceLens evaluates (Concrete Inputs
// entries): ints, floats, True/False/None, quoted strings, [..] lists and (..) tuples.
#include <optional>
#include <string_view>

#include "base/py_value.h"

namespace sollens {

// nullopt where literal_eval would raise.
std::optional<PyValue> literal_eval(std::string_view text);

}  // namespace sollens
