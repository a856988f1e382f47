#include "analyses/ranks/multi_rank_collectives.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "analyses/collectives/bus_bandwidth.h"
#include "analyses/collectives/group_aggregates.h"
#include "analyses/collectives/group_key.h"
#include "analyses/ranks/all_to_allv.h"
#include "analyses/ranks/matched_collectives.h"
#include "base/stats.h"

namespace sollens::ranks {

namespace {

using collectives::CollectiveEvent;
using collectives::ColumnDtype;
using collectives::kFieldCount;
using Kind = PyValue::Kind;

// The implicit-sync categories and the names record_param_comms gives them.
std::optional<std::string_view> collective_type(const PyValue& name) {
  if (name.kind != Kind::kStr) return std::nullopt;
  static const std::map<std::string_view, std::string_view> kTypes = {
      {"allreduce", "allreduce"},         {"allreduce_coalesced", "allreduce"},
      {"reducescatter", "reducescatter"}, {"_reduce_scatter_base", "reducescatter"},
      {"reduce_scatter_tensor_coalesced", "reducescatter"},
      {"allgather", "allgather"},         {"all_gather", "allgather"},
      {"_allgather_base", "allgather"},   {"all_gather_into_tensor_coalesced", "allgather"},
      {"allgather_into_tensor_coalesced", "allgather"},
      {"all_to_all", "alltoall"},         {"all_to_allv", "alltoallv"},
  };
  const auto it = kTypes.find(name.s);
  if (it == kTypes.end()) return std::nullopt;
  return it->second;
}

bool implicit_sync(std::string_view type) { return type != "alltoallv"; }

std::optional<double> bus_factor(std::string_view type, const PyValue& group_size) {
  if (!collectives::is_number(group_size)) return std::nullopt;
  const double n = collectives::number(group_size);
  if (type == "allreduce") return 2 * (n - 1) / n;
  return (n - 1) / n;  // reducescatter, allgather, alltoall
}

Table long_sheet(const LongTable& lt) {
  Table t("nccl_long", TableKind::kRanks);
  Column& id = t.add_column("collective_id", ColumnType::kString);
  Column& index = t.add_column("index_in_group", ColumnType::kInt);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  std::array<Column*, kFieldCount> fields{};
  Column *in_mb = nullptr, *out_mb = nullptr;
  for (int f = 0; f < kFieldCount; ++f) {
    fields[f] = &t.add_column(std::string(collectives::kFieldNames[f]), collectives::column_type(lt.dtypes[f]));
    if (f == collectives::kInMsgNelems) in_mb = &t.add_column("In msg size (MB)", ColumnType::kFloat, Unit::kMegabytes);
    if (f == collectives::kOutMsgNelems) out_mb = &t.add_column("Out msg size (MB)", ColumnType::kFloat, Unit::kMegabytes);
  }
  Column& ts = t.add_column("ts", lt.integer_ts ? ColumnType::kInt : ColumnType::kFloat, Unit::kTimestamp);
  Column& dur = t.add_column("dur", lt.integer_dur ? ColumnType::kInt : ColumnType::kFloat, Unit::kMicroseconds);
  Column& source = t.add_column("Collective name from", ColumnType::kString);
  for (const LongRow& row : lt.rows) {
    id.push_string(row.collective_id);
    index.push_int(row.index_in_group);
    rank.push_int(row.rank);
    for (int f = 0; f < kFieldCount; ++f) push_value(*fields[f], lt.dtypes[f], row.e.fields[f]);
    push_optional(*in_mb, row.e.in_msg_mb);
    push_optional(*out_mb, row.e.out_msg_mb);
    push_number(ts, row.e.ts, lt.integer_ts);
    push_number(dur, row.e.dur, lt.integer_dur);
    source.push_string(name_source_text(row.source));
  }
  return t;
}

int compare_fields(const LongRow& a, const LongRow& b) {
  if (a.rank != b.rank) return a.rank < b.rank ? -1 : 1;
  for (int f = 0; f < kFieldCount; ++f)
    if (int c = collectives::compare_keys(a.e.fields[f], b.e.fields[f])) return c;
  return 0;
}

Table summary_long_sheet(const LongTable& lt) {
  struct Group {
    const LongRow* first;
    collectives::GroupAggregates aggregates;
  };
  std::vector<const LongRow*> rows;
  for (const LongRow& r : lt.rows) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(), [](const LongRow* a, const LongRow* b) { return compare_fields(*a, *b) < 0; });
  std::vector<Group> groups;
  for (const LongRow* r : rows) {
    if (groups.empty() || compare_fields(*groups.back().first, *r) != 0) groups.push_back(Group{r, {}});
    groups.back().aggregates.add(r->e.dur, r->e.in_msg_mb, r->e.out_msg_mb);
  }
  std::vector<double> sums;
  for (const Group& g : groups) sums.push_back(g.aggregates.dur_sum());
  Table t("nccl_summary_long", TableKind::kRanks);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  std::array<Column*, kFieldCount> fields{};
  for (int f = 0; f < kFieldCount; ++f)
    fields[f] = &t.add_column(std::string(collectives::kFieldNames[f]), collectives::column_type(lt.dtypes[f]));
  collectives::GroupAggregateColumns aggregates(t, lt.integer_dur);
  for (size_t g : stats::pandas_argsort_desc(sums)) {
    const Group& group = groups[g];
    rank.push_int(group.first->rank);
    for (int f = 0; f < kFieldCount; ++f) push_value(*fields[f], lt.dtypes[f], group.first->e.fields[f]);
    aggregates.push(group.aggregates);
  }
  return t;
}

// One implicit-sync collective across its ranks.
struct SyncRow {
  const LongRow* first;
  std::vector<const LongRow*> members;  // rank order
  std::optional<std::string_view> type;
  double comm_latency = 0, skew_start = 0, avg_wait = 0, skew_end = 0;
  int64_t earliest_rank = 0;
  std::map<int64_t, double> wait;  // by rank
  std::optional<double> full_mb, algo_bw, bus_bw;
};

std::vector<SyncRow> implicit_sync_rows(const LongTable& lt, size_t& mismatches) {
  std::vector<SyncRow> rows;
  for (std::vector<const LongRow*>& members : rows_by_collective(lt)) {
    SyncRow s;
    s.members = std::move(members);
    s.first = s.members.front();
    s.type = collective_type(s.first->e.fields[collectives::kCollectiveName]);
    // Simplified mode keeps collectives whose name is missing or unknown.
    if (s.type ? !implicit_sync(*s.type) : !lt.simplified) continue;
    static constexpr int kChecked[] = {collectives::kProcessGroupName, collectives::kProcessGroupRanks,
                                       collectives::kCollectiveName,   collectives::kGroupSize,
                                       collectives::kDtype,            collectives::kInMsgNelems,
                                       collectives::kOutMsgNelems};
    if (!lt.simplified)
      for (const LongRow* m : s.members)
        for (int f : kChecked)
          if (!collectives::same_key(m->e.fields[f], s.first->e.fields[f])) {
            ++mismatches;
            break;
          }
    double latest_start = -INFINITY, earliest_end = INFINITY, latest_end = -INFINITY;
    s.comm_latency = INFINITY;
    for (const LongRow* m : s.members) {
      latest_start = std::max(latest_start, m->e.ts);
      earliest_end = std::min(earliest_end, m->e.ts + m->e.dur);
      latest_end = std::max(latest_end, m->e.ts + m->e.dur);
      s.comm_latency = std::min(s.comm_latency, m->e.dur);
    }
    double max_wait = -INFINITY, wait_sum = 0;
    for (const LongRow* m : s.members) {
      const double w = latest_start - m->e.ts;
      s.wait[m->rank] = w;
      wait_sum += w;
      // Python's max over (wait, rank): ties go to the higher rank.
      if (w > max_wait || (w == max_wait && m->rank > s.earliest_rank)) {
        max_wait = w;
        s.earliest_rank = m->rank;
      }
    }
    s.skew_start = max_wait;
    s.avg_wait = wait_sum / static_cast<double>(s.members.size());
    s.skew_end = latest_end - earliest_end;
    const CollectiveEvent& e = s.first->e;
    if (s.type && e.in_msg_mb && e.out_msg_mb) {
      s.full_mb = *s.type == "allgather" ? e.out_msg_mb : e.in_msg_mb;
      if (s.comm_latency > 0) s.algo_bw = (*s.full_mb / 1024) / (s.comm_latency / 1e6);
      if (s.algo_bw)
        if (auto f = bus_factor(*s.type, e.fields[collectives::kGroupSize])) s.bus_bw = *s.algo_bw * *f;
    }
    rows.push_back(std::move(s));
  }
  return rows;
}

std::vector<int64_t> ranks_of(const std::vector<SyncRow>& rows) {
  std::set<int64_t> ranks;
  for (const SyncRow& s : rows)
    for (const LongRow* m : s.members) ranks.insert(m->rank);
  return {ranks.begin(), ranks.end()};
}

Table implicit_sync_sheet(const LongTable& lt, const std::vector<SyncRow>& rows) {
  Table t("nccl_implicit_sync", TableKind::kRanks);
  Column& id = t.add_column("collective_id", ColumnType::kString);
  static constexpr int kMeta[] = {collectives::kProcessGroupName, collectives::kProcessGroupRanks,
                                  collectives::kCollectiveName,   collectives::kGroupSize,
                                  collectives::kDtype,            collectives::kInMsgNelems,
                                  collectives::kOutMsgNelems};
  std::vector<Column*> meta;
  for (int f : kMeta) meta.push_back(&t.add_column(std::string(collectives::kFieldNames[f]), collectives::column_type(lt.dtypes[f])));
  Column& in_mb = t.add_column("In msg size (MB)", ColumnType::kFloat, Unit::kMegabytes);
  Column& out_mb = t.add_column("Out msg size (MB)", ColumnType::kFloat, Unit::kMegabytes);
  Column& full = t.add_column("Full msg size (MB)", ColumnType::kFloat, Unit::kMegabytes);
  const ColumnType us_type = lt.integer_dur ? ColumnType::kInt : ColumnType::kFloat;
  const bool int_wait = lt.integer_ts;
  Column& latency = t.add_column("comm_latency", us_type, Unit::kMicroseconds);
  Column& skew_start = t.add_column("skew in start time", int_wait ? ColumnType::kInt : ColumnType::kFloat, Unit::kMicroseconds);
  Column& earliest = t.add_column("earliest arrival rank", ColumnType::kInt);
  Column& avg_wait = t.add_column("avg_wait_time", ColumnType::kFloat, Unit::kMicroseconds);
  const bool int_end = lt.integer_ts && lt.integer_dur;
  Column& skew_end = t.add_column("skew in end time", int_end ? ColumnType::kInt : ColumnType::kFloat, Unit::kMicroseconds);
  Column& algo = t.add_column("algo bw (GB/s)", ColumnType::kFloat, Unit::kGigabytesPerSecond);
  Column& bus = t.add_column("bus bw (GB/s)", ColumnType::kFloat, Unit::kGigabytesPerSecond);
  const std::vector<int64_t> ranks = ranks_of(rows);
  std::vector<Column*> ts, dur, wait;
  for (int64_t r : ranks) {
    const std::string p = "rank_" + std::to_string(r) + "_";
    ts.push_back(&t.add_column(p + "ts", lt.integer_ts ? ColumnType::kInt : ColumnType::kFloat, Unit::kTimestamp));
    dur.push_back(&t.add_column(p + "dur", us_type, Unit::kMicroseconds));
  }
  for (int64_t r : ranks)
    wait.push_back(&t.add_column("rank_" + std::to_string(r) + "_wait_time", int_wait ? ColumnType::kInt : ColumnType::kFloat,
                                 Unit::kMicroseconds));
  for (const SyncRow& s : rows) {
    id.push_string(s.first->collective_id);
    for (size_t k = 0; k < meta.size(); ++k) push_value(*meta[k], lt.dtypes[kMeta[k]], s.first->e.fields[kMeta[k]]);
    push_optional(in_mb, s.first->e.in_msg_mb);
    push_optional(out_mb, s.first->e.out_msg_mb);
    push_optional(full, s.full_mb);
    push_number(latency, s.comm_latency, lt.integer_dur);
    push_number(skew_start, s.skew_start, int_wait);
    earliest.push_int(s.earliest_rank);
    avg_wait.push_float(s.avg_wait);
    push_number(skew_end, s.skew_end, int_end);
    push_optional(algo, s.algo_bw);
    push_optional(bus, s.bus_bw);
    for (size_t k = 0; k < ranks.size(); ++k) {
      const auto m = std::find_if(s.members.begin(), s.members.end(), [&](const LongRow* x) { return x->rank == ranks[k]; });
      if (m == s.members.end()) {
        ts[k]->push_null();
        dur[k]->push_null();
        wait[k]->push_null();
        continue;
      }
      push_number(*ts[k], (*m)->e.ts, lt.integer_ts);
      push_number(*dur[k], (*m)->e.dur, lt.integer_dur);
      push_number(*wait[k], s.wait.at(ranks[k]), int_wait);
    }
  }
  return t;
}

// pandas groupby key of the summary: missing values become "Unknown".
PyValue unknown_if_missing(const PyValue& v) { return v.is_none() ? PyValue::str("Unknown") : v; }

Table summary_implicit_sync_sheet(const LongTable& lt, const std::vector<SyncRow>& rows) {
  static constexpr int kKeys[] = {collectives::kCollectiveName, collectives::kDtype, collectives::kInMsgNelems};
  auto compare = [](const SyncRow* a, const SyncRow* b) {
    for (int f : kKeys)
      if (int c = collectives::compare_keys(unknown_if_missing(a->first->e.fields[f]), unknown_if_missing(b->first->e.fields[f])))
        return c;
    return 0;
  };
  std::vector<const SyncRow*> sorted;
  for (const SyncRow& s : rows) sorted.push_back(&s);
  std::stable_sort(sorted.begin(), sorted.end(), [&](const SyncRow* a, const SyncRow* b) { return compare(a, b) < 0; });
  std::vector<std::vector<const SyncRow*>> groups;
  for (const SyncRow* s : sorted) {
    if (groups.empty() || compare(groups.back().front(), s) != 0) groups.emplace_back();
    groups.back().push_back(s);
  }
  const bool any_algo = std::any_of(rows.begin(), rows.end(), [](const SyncRow& s) { return s.algo_bw.has_value(); });
  const bool any_bus = std::any_of(rows.begin(), rows.end(), [](const SyncRow& s) { return s.bus_bw.has_value(); });
  std::vector<double> totals;
  for (const auto& g : groups) {
    std::vector<double> latencies;
    for (const SyncRow* s : g) latencies.push_back(s->comm_latency);
    totals.push_back(stats::pandas_sum(latencies) / 1000);
  }

  Table t("nccl_summary_implicit_sync", TableKind::kRanks);
  std::vector<Column*> keys(3);
  // Key columns hold "Unknown" for missing values, so a column with one is text.
  std::array<ColumnDtype, 3> key_dtypes{};
  for (size_t k = 0; k < 3; ++k) {
    collectives::DtypeInference d;
    for (const SyncRow& s : rows) d.add(unknown_if_missing(s.first->e.fields[kKeys[k]]));
    key_dtypes[k] = d.dtype();
    keys[k] = &t.add_column(std::string(collectives::kFieldNames[kKeys[k]]), collectives::column_type(key_dtypes[k]));
  }
  Column& pg = t.add_column("Process Group Name", ColumnType::kString);
  Column& group_size = t.add_column("Group size", collectives::column_type(lt.dtypes[collectives::kGroupSize]));
  Column& full = t.add_column("Full msg size (MB)", ColumnType::kFloat, Unit::kMegabytes);
  struct Metric {
    const char* name;
    std::optional<double> (*get)(const SyncRow&);
    Unit unit;
  };
  std::vector<Metric> metrics = {
      {"comm_latency", [](const SyncRow& s) -> std::optional<double> { return s.comm_latency; }, Unit::kMicroseconds},
      {"skew in start time", [](const SyncRow& s) -> std::optional<double> { return s.skew_start; }, Unit::kMicroseconds},
      {"skew in end time", [](const SyncRow& s) -> std::optional<double> { return s.skew_end; }, Unit::kMicroseconds},
  };
  if (any_algo) metrics.push_back({"algo bw (GB/s)", [](const SyncRow& s) { return s.algo_bw; }, Unit::kGigabytesPerSecond});
  if (any_bus) metrics.push_back({"bus bw (GB/s)", [](const SyncRow& s) { return s.bus_bw; }, Unit::kGigabytesPerSecond});
  static constexpr const char* kAggs[] = {"mean", "median", "min", "max"};
  std::vector<std::array<Column*, 4>> metric_columns;
  for (const Metric& m : metrics) {
    std::array<Column*, 4> cols{};
    for (int a = 0; a < 4; ++a) cols[a] = &t.add_column(std::string(m.name) + "_" + kAggs[a], ColumnType::kFloat, m.unit);
    metric_columns.push_back(cols);
  }
  Column& count = t.add_column("count", ColumnType::kInt);
  Column& total = t.add_column("Total comm latency (ms)", ColumnType::kFloat, Unit::kMilliseconds);
  for (size_t g : stats::pandas_argsort_desc(totals)) {
    const auto& members = groups[g];
    const CollectiveEvent& first = members.front()->first->e;
    for (size_t k = 0; k < 3; ++k) push_value(*keys[k], key_dtypes[k], unknown_if_missing(first.fields[kKeys[k]]));
    push_value(pg, ColumnDtype::kObject, first.fields[collectives::kProcessGroupName]);
    // pandas "first" skips missing values.
    const PyValue* size = nullptr;
    std::optional<double> full_mb;
    for (const SyncRow* s : members) {
      if (!size && !s->first->e.fields[collectives::kGroupSize].is_none()) size = &s->first->e.fields[collectives::kGroupSize];
      if (!full_mb) full_mb = s->full_mb;
    }
    push_value(group_size, lt.dtypes[collectives::kGroupSize], size ? *size : PyValue::none());
    push_optional(full, full_mb);
    for (size_t m = 0; m < metrics.size(); ++m) {
      std::vector<double> v;
      for (const SyncRow* s : members)
        if (auto x = metrics[m].get(*s)) v.push_back(*x);
      if (v.empty()) {
        for (Column* c : metric_columns[m]) c->push_null();
        continue;
      }
      metric_columns[m][0]->push_float(stats::pandas_mean(v));
      metric_columns[m][1]->push_float(stats::median(v));
      metric_columns[m][2]->push_float(*std::min_element(v.begin(), v.end()));
      metric_columns[m][3]->push_float(*std::max_element(v.begin(), v.end()));
    }
    count.push_int(static_cast<int64_t>(members.size()));
    total.push_float(totals[g]);
  }
  return t;
}

// Python's round(x, 1) for the values these sheets hold.
double round1(double v) { return std::nearbyint(v * 10) / 10; }

// TraceLens's --gpus_per_node as it derives it from deviceProperties: the GPUs listed by
// the lowest rank's trace; 0 when it lists none (no node_id column then).
int64_t gpus_per_node(const std::vector<RankSummary>& ranks) {
  const RankSummary* lowest = nullptr;
  for (const RankSummary& r : ranks)
    if (!lowest || r.rank < lowest->rank) lowest = &r;
  return lowest ? lowest->gpus_on_node : 0;
}

Table straggler_sheet(const LongTable& lt, const std::vector<SyncRow>& rows, int64_t gpus_per_node) {
  const std::vector<int64_t> ranks = ranks_of(rows);
  std::map<int64_t, std::vector<double>> durs;
  for (const LongRow& r : lt.rows) durs[r.rank].push_back(r.e.dur);
  struct Line {
    int64_t rank;
    double total_wait, mean_wait;
    int64_t last, first;
  };
  std::vector<Line> lines;
  for (int64_t r : ranks) {
    std::vector<double> waits;
    int64_t last = 0, first = 0;
    for (const SyncRow& s : rows) {
      if (const auto w = s.wait.find(r); w != s.wait.end()) waits.push_back(w->second);
      // idxmin over the wait columns in rank order: the first rank with the least wait.
      int64_t least = -1;
      double least_wait = INFINITY;
      for (const auto& [rank, w] : s.wait)
        if (w < least_wait) least_wait = w, least = rank;
      if (least == r) ++last;
      if (s.earliest_rank == r) ++first;
    }
    lines.push_back({r, waits.empty() ? 0.0 : stats::pandas_sum(waits),
                     waits.empty() ? NAN : stats::pandas_mean(waits), last, first});
  }
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return round1(a.total_wait) < round1(b.total_wait); });
  Table t("straggler_summary", TableKind::kRanks);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& total = t.add_column("total_wait_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& mean = t.add_column("mean_wait_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& last = t.add_column("times_arrived_last", ColumnType::kInt);
  Column& first = t.add_column("times_arrived_first", ColumnType::kInt);
  Column& pct = t.add_column("pct_arrived_last", ColumnType::kFloat, Unit::kPercent);
  Column& n = t.add_column("num_collectives", ColumnType::kInt);
  Column& nccl = t.add_column("total_nccl_dur_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column* node = gpus_per_node > 0 ? &t.add_column("node_id", ColumnType::kInt) : nullptr;
  for (const Line& l : lines) {
    if (node) node->push_int(l.rank / gpus_per_node);
    rank.push_int(l.rank);
    total.push_float(round1(l.total_wait));
    push_optional(mean, std::isnan(l.mean_wait) ? std::nullopt : std::optional<double>(round1(l.mean_wait)));
    last.push_int(l.last);
    first.push_int(l.first);
    pct.push_float(round1(100.0 * static_cast<double>(l.last) / static_cast<double>(rows.size())));
    n.push_int(static_cast<int64_t>(rows.size()));
    nccl.push_float(round1(stats::pandas_sum(durs[l.rank])));
  }
  return t;
}

}  // namespace

MultiRankCollectives multi_rank_collective_sheets(const std::vector<RankSummary>& ranks) {
  MultiRankCollectives out;
  const LongTable lt = build_long(ranks);
  out.simplified_mode = lt.simplified;
  if (lt.rows.empty()) return out;
  const std::vector<SyncRow> sync = implicit_sync_rows(lt, out.metadata_mismatches);
  AllToAllvSheets all_to_allv = all_to_allv_sheets(lt, ranks.size(), out.metadata_mismatches);
  if (!sync.empty()) out.sheets.push_back(summary_implicit_sync_sheet(lt, sync));
  out.sheets.push_back(summary_long_sheet(lt));
  if (all_to_allv.summary) out.sheets.push_back(std::move(*all_to_allv.summary));
  if (all_to_allv.heatmap) out.sheets.push_back(std::move(*all_to_allv.heatmap));
  out.sheets.push_back(long_sheet(lt));
  if (!sync.empty()) out.sheets.push_back(implicit_sync_sheet(lt, sync));
  if (all_to_allv.detail) out.sheets.push_back(std::move(*all_to_allv.detail));
  if (!sync.empty()) out.sheets.push_back(straggler_sheet(lt, sync, gpus_per_node(ranks)));
  return out;
}

}  // namespace sollens::ranks
