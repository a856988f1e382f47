#pragma once
// HTA's memory bandwidth counters (trace_counters.py): each memcpy / memset adds the
// bandwidth Kineto recorded for it (args "memory bandwidth (GB/s)", i.e. bytes ÷
// duration) from its start to its end, summed per kind of operation (Memcpy DtoD,
// Memcpy HtoD, Memcpy DtoH, Memset, ...: the name's prefix, HTA's
// get_memory_kernel_type).
#include <string>
#include <string_view>
#include <vector>

#include "analyses/hta/counter_series.h"
#include "analyses/hta/hta_trace.h"
#include "table/table.h"

namespace sollens::hta {

// "Memset" | the name's first 11 characters for a Memcpy ("Memcpy DtoH") | "Memcpy Unknown".
std::string_view memory_kernel_kind(std::string_view name);

// The summed bandwidth per kind at each start and end, as get_memory_bw_time_series
// has it (a negative running sum, from rounding, reads 0).
std::vector<MemoryBwPoint> memory_bw_series(const HtaTrace& trace);

// memory_bw_summary: rank, name, count, mean, std, min, 25%, 50%, 75%, max of the
// series' points above 0 (GB/s), per kind.
Table memory_bw_summary_table(const HtaTrace& trace, const std::vector<MemoryBwPoint>& series);
// memory_bw_time_series: rank, ts, pid, name, memory_bw_gbps (one row per change).
Table memory_bw_time_series_table(const HtaTrace& trace, const std::vector<MemoryBwPoint>& series);

}  // namespace sollens::hta
