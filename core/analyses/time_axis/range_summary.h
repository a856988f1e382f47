#pragma once
// A range of the time axis summarised: per lane kind and category the busy time (depth-0
// events only, so that nested ops are not counted twice; summed over the lanes of a kind,
// so a share can pass 100 % with several threads or streams), its share of the range and
// the events' count; the GPU's idle time (the range less the union of every GPU event);
// the top 5 kernels by their time inside the range. Events are clipped to the range.
#include "base/status.h"
#include "table/table.h"

namespace sollens {

// `lanes` and `events`: the time axis's sheets (time_axis.h); start / end: µs from the
// trace's start. An empty or reversed range gives a sheet with no rows; sheets without
// the time axis's columns, an internal_error.
Result<Table> range_summary(const Table& lanes, const Table& events, double start_us, double end_us);

}  // namespace sollens
