#include "analyses/ranks/rank_summary.h"

#include <algorithm>
#include <set>

#include "analyses/hta/comm_comp_overlap.h"

namespace sollens::ranks {

namespace {

std::optional<int64_t> search_rank(std::string_view text) {
  for (size_t at = text.find("rank"); at != std::string_view::npos; at = text.find("rank", at + 1)) {
    size_t i = at + 4;
    if (i < text.size() && (text[i] == '[' || text[i] == '-' || text[i] == '_' || text[i] == '/')) ++i;
    size_t digits = i;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') ++digits;
    if (digits == i || digits - i > 9) continue;
    return std::stoll(std::string(text.substr(i, digits - i)));
  }
  return std::nullopt;
}

}  // namespace

std::optional<int64_t> rank_from_file_name(std::string_view path) {
  const size_t slash = path.find_last_of('/');
  const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  if (auto r = search_rank(base)) return r;
  return search_rank(path);
}

RankSummary summarize_rank(const EventStore& store, const TraceTree& tree, const GpuTimeline& timeline,
                           std::string file) {
  RankSummary r;
  const auto& distributed = store.metadata.distributed;
  if (distributed && distributed->rank != kNoValue) {
    r.rank = distributed->rank;
    r.rank_from = "distributedInfo";
  } else if (const auto from_name = rank_from_file_name(file)) {
    r.rank = *from_name;
    r.rank_from = "file name";
  } else {
    r.rank_from = "position";
  }
  r.file = std::move(file);
  r.base_time_ns = store.metadata.base_time_ns;
  r.gpus_on_node = static_cast<int64_t>(store.metadata.devices.size());
  r.collectives = rank_collectives(store, tree);
  r.timeline = timeline;
  const hta::HtaTrace hta_trace(store);
  const hta::BreakdownEvents hta_events = hta::breakdown_events(hta_trace);
  const hta::CommCompOverlap overlap = hta::comm_comp_overlap(hta_trace, hta_events);
  r.comm_us = overlap.comm_us;
  r.overlapped_comm_us = overlap.overlapped_us;
  r.idle = hta::idle_time_by_stream(hta_trace, hta_events, hta::HtaOptions{}.consecutive_kernel_delay_us);
  return r;
}

void settle_ranks(std::vector<RankSummary>& ranks) {
  std::set<int64_t> seen;
  bool distinct = true;
  for (const RankSummary& r : ranks) {
    if (r.rank_from == "position" || !seen.insert(r.rank).second) distinct = false;
  }
  if (!distinct)
    for (size_t i = 0; i < ranks.size(); ++i) {
      ranks[i].rank = static_cast<int64_t>(i);
      ranks[i].rank_from = "position";
    }
  std::stable_sort(ranks.begin(), ranks.end(),
                   [](const RankSummary& a, const RankSummary& b) { return a.rank < b.rank; });
}

}  // namespace sollens::ranks
