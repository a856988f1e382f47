#pragma once
// Interval unions and differences on [start, end] pairs in µs, the way TraceLens's
// GPUEventAnalyser does them: doubles throughout, touching intervals merge.
#include <vector>

namespace sollens {

struct Interval {
  double start;
  double end;
};
using IntervalList = std::vector<Interval>;

// Sorted by start, overlapping or touching (start <= previous end) intervals joined.
IntervalList merge_intervals(IntervalList intervals);
// a − b for two merged lists: sorted pieces that do not overlap (a zero-length interval
// of b splits a piece of a into two that touch there; lengths are unaffected).
IntervalList subtract_intervals(const IntervalList& a, const IntervalList& b);
// Σ (end − start) over a merged list, in order (compensated, like Python's sum).
double total_length(const IntervalList& merged);

}  // namespace sollens
