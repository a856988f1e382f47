#include "analyses/ranks/idle_time.h"

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "analyses/ranks/rank_summary.h"
#include "store/raw_args.h"

namespace sollens::ranks {

namespace {

std::string stream_of(ArgsReader& reader, const EventStore& s, uint32_t e) {
  static constexpr std::array<std::string_view, 1> kKeys = {"stream"};
  std::array<std::string_view, 1> raw{};
  if (reader.find_raw(e, kKeys, raw) && !raw[0].empty()) return std::string(raw[0]);
  return std::string(s.str(s.tid[e]));
}

// Stream ids are numbers: 7 before 22.
struct StreamOrder {
  bool operator()(const std::string& a, const std::string& b) const {
    return a.size() != b.size() ? a.size() < b.size() : a < b;
  }
};

}  // namespace

std::vector<StreamIdle> idle_time_by_stream(const EventStore& s, const TraceTree& tree,
                                            double consecutive_kernel_delay) {
  ArgsReader reader(s);
  std::map<std::string, std::vector<uint32_t>, StreamOrder> streams;
  for (uint32_t e : tree.gpu_events) streams[stream_of(reader, s, e)].push_back(e);
  std::vector<StreamIdle> out;
  for (auto& [name, events] : streams) {
    std::stable_sort(events.begin(), events.end(), [&](uint32_t a, uint32_t b) { return s.ts[a] < s.ts[b]; });
    StreamIdle idle;
    idle.stream = name;
    for (size_t k = 1; k < events.size(); ++k) {
      const uint32_t e = events[k];
      const double prev_end = s.t_end(events[k - 1]);
      const double gap = s.ts[e] - prev_end;
      const int32_t launch = tree.parent[e];
      if (launch != kNoParent && s.ts[launch] > prev_end) {
        idle.host_wait_us += gap;
        idle.has_host_wait = true;
      } else if (gap < consecutive_kernel_delay) {
        idle.kernel_wait_us += gap;
        idle.has_kernel_wait = true;
      } else {
        idle.other_us += gap;
        idle.has_other = true;
      }
    }
    out.push_back(std::move(idle));
  }
  return out;
}

Table idle_time_table(const std::vector<RankSummary>& ranks) {
  Table t("idle_time_breakdown", TableKind::kRanks);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& stream = t.add_column("stream", ColumnType::kString);
  Column& category = t.add_column("idle_category", ColumnType::kString);
  Column& time = t.add_column("idle_time", ColumnType::kFloat, Unit::kMicroseconds);
  Column& ratio = t.add_column("idle_time_ratio", ColumnType::kFloat);
  for (const RankSummary& r : ranks)
    for (const StreamIdle& s : r.idle) {
      const double total = s.host_wait_us + s.kernel_wait_us + s.other_us;
      const std::tuple<const char*, bool, double> rows[] = {{"host_wait", s.has_host_wait, s.host_wait_us},
                                                            {"kernel_wait", s.has_kernel_wait, s.kernel_wait_us},
                                                            {"other", s.has_other, s.other_us}};
      for (const auto& [name, present, us] : rows) {
        if (!present) continue;
        rank.push_int(r.rank);
        stream.push_string(s.stream);
        category.push_string(name);
        time.push_float(us);
        if (total != 0) ratio.push_float(us / total);
        else ratio.push_null();
      }
    }
  return t;
}

}  // namespace sollens::ranks
