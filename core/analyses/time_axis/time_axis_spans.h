#pragma once
// The spans drawn over the time axis's lanes (time_axis.h): steps, phases and layers
// from the cycles, the critical paths' segments, the longest launch delays.
#include "analyses/time_axis/time_axis.h"
#include "analyses/time_axis/time_axis_parts.h"

namespace sollens::time_axis {

Table spans_table(const EventStore& store, const TraceTree& tree, const Placement& placed, double origin,
                  const TimeAxisInputs& inputs);

}  // namespace sollens::time_axis
