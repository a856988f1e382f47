#include "analyses/ranks/rank_tables.h"

#include <map>
#include <string>
#include <utility>

#include "base/stats.h"

namespace sollens::ranks {

namespace {

double number_at(const Column& c, size_t row) {
  return c.type() == ColumnType::kInt ? static_cast<double>(c.int_at(row)) : c.float_at(row);
}

// End time of each collective on each rank: id -> rank -> ts + dur.
std::map<std::string, std::map<int64_t, double>> collective_ends(const Table& nccl_long) {
  std::map<std::string, std::map<int64_t, double>> ends;
  const Column* id = nccl_long.find("collective_id");
  const Column* rank = nccl_long.find("rank");
  const Column* ts = nccl_long.find("ts");
  const Column* dur = nccl_long.find("dur");
  if (!id || !rank || !ts || !dur) return ends;
  for (size_t i = 0; i < nccl_long.num_rows(); ++i)
    ends[id->string_at(i)][rank->int_at(i)] = number_at(*ts, i) + number_at(*dur, i);
  return ends;
}

}  // namespace

Table gpu_timeline_ranks_table(const std::vector<RankSummary>& ranks) {
  using Field = double GpuTimeline::*;
  static const std::pair<const char*, Field> kTypes[] = {
      {"computation_time", &GpuTimeline::computation_us},   {"exposed_comm_time", &GpuTimeline::exposed_comm_us},
      {"exposed_memcpy_time", &GpuTimeline::exposed_memcpy_us}, {"busy_time", &GpuTimeline::busy_us},
      {"idle_time", &GpuTimeline::idle_us},                 {"total_time", &GpuTimeline::total_us},
      {"total_comm_time", &GpuTimeline::total_comm_us},     {"total_memcpy_time", &GpuTimeline::total_memcpy_us},
  };
  Table t("gpu_timeline_ranks", TableKind::kRanks);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  std::vector<Column*> ms, pct;
  for (const auto& [name, field] : kTypes) ms.push_back(&t.add_column(std::string(name) + " ms", ColumnType::kFloat, Unit::kMilliseconds));
  for (const auto& [name, field] : kTypes) pct.push_back(&t.add_column(std::string(name) + " %", ColumnType::kFloat, Unit::kPercent));
  for (const RankSummary& r : ranks) {
    rank.push_int(r.rank);
    for (size_t k = 0; k < std::size(kTypes); ++k) {
      const double us = r.timeline.*(kTypes[k].second);
      ms[k]->push_float(us / 1e3);
      if (r.timeline.total_us > 0) pct[k]->push_float(us / r.timeline.total_us * 100);
      else pct[k]->push_null();
    }
  }
  return t;
}

Table comm_comp_overlap_table(const std::vector<RankSummary>& ranks) {
  Table t("comm_comp_overlap", TableKind::kRanks);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& pct = t.add_column("comp_comm_overlap_pctg", ColumnType::kFloat, Unit::kPercent);
  Column& comm = t.add_column("comm_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& overlapped = t.add_column("overlapped_comm_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  for (const RankSummary& r : ranks) {
    rank.push_int(r.rank);
    if (r.comm_us > 0) pct.push_float(100.0 * r.overlapped_comm_us / r.comm_us);
    else pct.push_null();
    comm.push_float(r.comm_us);
    overlapped.push_float(r.overlapped_comm_us);
  }
  return t;
}

Table rank_clocks_table(const std::vector<RankSummary>& ranks, const Table& nccl_long) {
  Table t("rank_clocks", TableKind::kRanks);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& from = t.add_column("rank from", ColumnType::kString);
  Column& file = t.add_column("trace file", ColumnType::kString);
  Column& base = t.add_column("baseTimeNanoseconds", ColumnType::kInt);
  Column& base_offset = t.add_column("base time offset (us)", ColumnType::kFloat, Unit::kMicroseconds);
  Column& end_offset = t.add_column("collective end offset (us)", ColumnType::kFloat, Unit::kMicroseconds);
  Column& matched = t.add_column("collectives matched", ColumnType::kInt);
  const auto ends = collective_ends(nccl_long);
  const RankSummary* reference = ranks.empty() ? nullptr : &ranks.front();
  for (const RankSummary& r : ranks) {
    rank.push_int(r.rank);
    from.push_string(r.rank_from);
    file.push_string(r.file);
    if (r.base_time_ns != kNoValue) base.push_int(r.base_time_ns);
    else base.push_null();
    if (r.base_time_ns != kNoValue && reference->base_time_ns != kNoValue)
      base_offset.push_float(static_cast<double>(r.base_time_ns - reference->base_time_ns) / 1e3);
    else base_offset.push_null();
    std::vector<double> differences;
    for (const auto& [id, by_rank] : ends) {
      const auto mine = by_rank.find(r.rank), theirs = by_rank.find(reference->rank);
      if (mine != by_rank.end() && theirs != by_rank.end()) differences.push_back(mine->second - theirs->second);
    }
    if (differences.empty()) end_offset.push_null();
    else end_offset.push_float(stats::median(differences));
    matched.push_int(static_cast<int64_t>(differences.size()));
  }
  return t;
}

}  // namespace sollens::ranks
