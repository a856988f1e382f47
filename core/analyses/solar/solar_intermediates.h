#pragma once
// The intermediates that fusion would remove: one row per tensor a counted node
// writes and a later counted node reads (Solar's intermediate class), with the bytes
// its write and its reads move through DRAM when every op runs on its own.
#include "analyses/solar/solar_graph.h"
#include "store/execution_graph.h"
#include "table/table.h"

namespace sollens::solar {

// Columns: producer_et_id, producer, tensor_id, shape, dtype, elements, write_bytes,
// reads, read_bytes, bytes_removed (write + reads). Σ bytes_removed equals the
// graph's intermediate bytes.
Table intermediates_table(const ExecutionGraph& graph, const SolarGraph& solar);

}  // namespace sollens::solar
