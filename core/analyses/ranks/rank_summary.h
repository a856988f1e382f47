#pragma once
// What the multi-rank report keeps of one rank once its trace is dropped: its rank,
// its collective kernels and its GPU timeline. A few KB per rank, so thousands fit.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/ranks/idle_time.h"
#include "analyses/ranks/rank_collectives.h"
#include "analyses/timeline/gpu_timeline.h"
#include "model/trace_tree.h"
#include "store/event_store.h"

namespace sollens::ranks {

struct RankSummary {
  int64_t rank = 0;
  std::string rank_from;  // "distributedInfo", "file name" or "position"
  std::string file;
  int64_t base_time_ns = kNoValue;  // baseTimeNanoseconds
  int64_t gpus_on_node = 0;         // the trace's deviceProperties entries: the GPUs its node has
  std::vector<RankCollective> collectives;
  GpuTimeline timeline;  // linked GPU events, as the rank's own gpu_timeline sheet
  // HTA's comm-comp overlap (analyses/hta/comm_comp_overlap.h): merged communication
  // time, and of it the time a computation kernel runs too.
  double comm_us = 0, overlapped_comm_us = 0;
  std::vector<StreamIdle> idle;  // HTA's idle-time breakdown per stream
};

// `file` names the trace; its rank comes from distributedInfo.rank when the trace has
// it, else from the file name (rank_from_file_name), else it is left to the caller
// (rank_from = "position").
RankSummary summarize_rank(const EventStore& store, const TraceTree& tree, const GpuTimeline& timeline,
                           std::string file);

// TraceLens's default --rank_regex, rank[\[\-_/]?(\d+), searched in the base name and
// then in the whole path; nullopt when neither has it.
std::optional<int64_t> rank_from_file_name(std::string_view path);

// Ranks for a set of summaries: keeps the ranks read when they are all distinct, else
// numbers them by position (file order) and says so in rank_from.
void settle_ranks(std::vector<RankSummary>& ranks);

}  // namespace sollens::ranks
