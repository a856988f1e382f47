#pragma once
// HTA's launch-queue length per stream (TraceCounters._get_queue_length_time_series_for_rank)
// as the critical path reads it: after each launch call (+1) and each GPU event's start
// (−1), on the full trace. The graph asks it whether a kernel found its stream idle.
#include <cstdint>
#include <limits>
#include <vector>

#include "analyses/hta/critical_path/cp_view.h"
#include "store/narrow_column.h"

namespace sollens::hta::cp {

class QueueLengths {
 public:
  static constexpr int64_t kNone = NarrowCode<int64_t>::kAbsent;
  explicit QueueLengths(const CpView& view);
  // The queue length right after the row's +1 or −1; kNone for a row that is neither.
  int64_t at(uint32_t row) const { return row < length_.size() ? length_[row] : kNone; }

 private:
  NarrowColumn<int64_t> length_;  // a queue is short: 4 bytes a row
};

}  // namespace sollens::hta::cp
