#pragma once
// The words a table's kind and a column's unit are written with where they leave the
// core (the page's sheet descriptions): stable names the page reads.
#include <string_view>

#include "table/table.h"

namespace sollens {

// "timeline", "summary", "histogram", "perf_model", "unified_perf", "collectives", "cycles".
std::string_view table_kind_name(TableKind kind);

// "" (no unit), "µs", "ms", "%", "GFLOP", "MB", "TFLOPS/s", "TB/s", "GB/s", "FLOP/B",
// "timestamp µs" (an instant on the trace's clock: the page shows it from the trace's start).
std::string_view unit_symbol(Unit unit);

}  // namespace sollens
