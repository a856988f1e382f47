#include "analyses/ranks/all_to_allv.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyses/collectives/collective_events.h"
#include "base/python_literal.h"
#include "base/stats.h"

namespace sollens::ranks {

namespace {

using collectives::ColumnDtype;
using Kind = PyValue::Kind;

// The metadata TraceLens checks and copies for an all_to_allv, in its column order.
constexpr int kMeta[] = {collectives::kProcessGroupName, collectives::kProcessGroupRanks,
                         collectives::kCollectiveName,   collectives::kGroupSize,
                         collectives::kDtype,            collectives::kStream};

bool is_all_to_allv(const LongRow& r) {
  const PyValue& name = r.e.fields[collectives::kCollectiveName];
  return name.kind == Kind::kStr && name.s == "all_to_allv";
}

// One all_to_allv across its ranks.
struct AllvRow {
  std::vector<const LongRow*> members;  // rank order
  double earliest_start = INFINITY, latest_start = -INFINITY, earliest_end = INFINITY, latest_end = -INFINITY;
  double max_dur = -INFINITY, min_dur = INFINITY, avg_dur = 0;
  std::optional<double> total_mb, throughput, max_rank_throughput, min_rank_throughput, size_imbalance;
  PyValue total_nelems;  // int, float or None as Python's sum would give

  const LongRow& first() const { return *members.front(); }
  double wall_time() const { return latest_end - earliest_start; }
};

// Σ In msg nelems as Python adds them; None when a rank has no number.
PyValue sum_nelems(const std::vector<const LongRow*>& members) {
  bool all_int = true;
  double sum = 0;
  int64_t int_sum = 0;
  for (const LongRow* m : members) {
    const PyValue& v = m->e.fields[collectives::kInMsgNelems];
    if (!collectives::is_number(v)) return PyValue::none();
    all_int = all_int && v.kind != Kind::kFloat;
    sum += collectives::number(v);
    int_sum += v.kind == Kind::kFloat ? 0 : static_cast<int64_t>(collectives::number(v));
  }
  return all_int ? PyValue::integer(int_sum) : PyValue::real(sum);
}

void fill_sizes(AllvRow& a) {
  std::vector<double> sizes;
  for (const LongRow* m : a.members)
    if (m->e.in_msg_mb) sizes.push_back(*m->e.in_msg_mb);
  for (const LongRow* m : a.members)
    if (m->e.in_msg_mb && *m->e.in_msg_mb > 0 && m->e.dur > 0) {
      const double t = (*m->e.in_msg_mb / 1024) / (m->e.dur / 1e6);
      a.max_rank_throughput = std::max(a.max_rank_throughput.value_or(-INFINITY), t);
      a.min_rank_throughput = std::min(a.min_rank_throughput.value_or(INFINITY), t);
    }
  if (sizes.size() != a.members.size()) return;
  double total = 0;
  for (double s : sizes) total += s;
  a.total_mb = total;
  if (a.wall_time() > 0) a.throughput = (total / 1024) / (a.wall_time() / 1e6);
  const double mean = total / static_cast<double>(sizes.size());
  if (mean > 0) a.size_imbalance = *std::max_element(sizes.begin(), sizes.end()) / mean;
}

AllvRow measure(std::vector<const LongRow*> members) {
  AllvRow a;
  a.members = std::move(members);
  double dur_sum = 0;
  for (const LongRow* m : a.members) {
    const double end = m->e.ts + m->e.dur;
    a.earliest_start = std::min(a.earliest_start, m->e.ts);
    a.latest_start = std::max(a.latest_start, m->e.ts);
    a.earliest_end = std::min(a.earliest_end, end);
    a.latest_end = std::max(a.latest_end, end);
    a.max_dur = std::max(a.max_dur, m->e.dur);
    a.min_dur = std::min(a.min_dur, m->e.dur);
    dur_sum += m->e.dur;
  }
  a.avg_dur = dur_sum / static_cast<double>(a.members.size());
  a.total_nelems = sum_nelems(a.members);
  fill_sizes(a);
  return a;
}

bool metadata_agrees(const AllvRow& a) {
  for (const LongRow* m : a.members)
    for (int f : kMeta)
      if (!collectives::same_key(m->e.fields[f], a.first().e.fields[f])) return false;
  return true;
}

// The all_to_allv collectives by total MB, descending (pandas' sort, NaN last).
std::vector<AllvRow> all_to_allv_rows(const LongTable& lt, size_t& mismatches) {
  std::vector<AllvRow> found;
  for (std::vector<const LongRow*>& members : rows_by_collective(lt)) {
    if (!is_all_to_allv(*members.front())) continue;
    found.push_back(measure(std::move(members)));
    if (!metadata_agrees(found.back())) ++mismatches;
  }
  std::vector<double> totals;
  for (const AllvRow& a : found) totals.push_back(a.total_mb.value_or(NAN));
  std::vector<AllvRow> sorted;
  for (size_t k : stats::pandas_argsort_desc(totals)) sorted.push_back(std::move(found[k]));
  return sorted;
}

// A column of Python values, typed as pandas types it once all are known.
void add_py_column(Table& t, const std::string& name, const std::vector<PyValue>& values) {
  collectives::DtypeInference d;
  for (const PyValue& v : values) d.add(v);
  Column& c = t.add_column(name, collectives::column_type(d.dtype()));
  for (const PyValue& v : values) push_value(c, d.dtype(), v);
}

std::vector<int64_t> ranks_of(const std::vector<AllvRow>& rows) {
  std::set<int64_t> ranks;
  for (const AllvRow& a : rows)
    for (const LongRow* m : a.members) ranks.insert(m->rank);
  return {ranks.begin(), ranks.end()};
}

const LongRow* member(const AllvRow& a, int64_t rank) {
  for (const LongRow* m : a.members)
    if (m->rank == rank) return m;
  return nullptr;
}

struct Types {
  ColumnType ts, dur, end;
};

void add_rank_columns(Table& t, const LongTable& lt, const std::vector<AllvRow>& rows, const Types& types) {
  const std::vector<int64_t> ranks = ranks_of(rows);
  for (int64_t r : ranks) {
    const std::string p = "rank_" + std::to_string(r) + "_";
    Column& ts = t.add_column(p + "ts", types.ts, Unit::kTimestamp);
    Column& dur = t.add_column(p + "dur", types.dur, Unit::kMicroseconds);
    Column& in_n = t.add_column(p + "In msg nelems", collectives::column_type(lt.dtypes[collectives::kInMsgNelems]));
    Column& out_n = t.add_column(p + "Out msg nelems", collectives::column_type(lt.dtypes[collectives::kOutMsgNelems]));
    Column& in_mb = t.add_column(p + "In msg size (MB)", ColumnType::kFloat, Unit::kMegabytes);
    Column& out_mb = t.add_column(p + "Out msg size (MB)", ColumnType::kFloat, Unit::kMegabytes);
    Column& in_split = t.add_column(p + "In split size", collectives::column_type(lt.dtypes[collectives::kInSplitSize]));
    Column& out_split = t.add_column(p + "Out split size", collectives::column_type(lt.dtypes[collectives::kOutSplitSize]));
    for (const AllvRow& a : rows) {
      const LongRow* m = member(a, r);
      if (!m) {
        for (Column* c : {&ts, &dur, &in_n, &out_n, &in_mb, &out_mb, &in_split, &out_split}) c->push_null();
        continue;
      }
      push_number(ts, m->e.ts, types.ts == ColumnType::kInt);
      push_number(dur, m->e.dur, types.dur == ColumnType::kInt);
      push_value(in_n, lt.dtypes[collectives::kInMsgNelems], m->e.fields[collectives::kInMsgNelems]);
      push_value(out_n, lt.dtypes[collectives::kOutMsgNelems], m->e.fields[collectives::kOutMsgNelems]);
      push_optional(in_mb, m->e.in_msg_mb);
      push_optional(out_mb, m->e.out_msg_mb);
      push_value(in_split, lt.dtypes[collectives::kInSplitSize], m->e.fields[collectives::kInSplitSize]);
      push_value(out_split, lt.dtypes[collectives::kOutSplitSize], m->e.fields[collectives::kOutSplitSize]);
    }
  }
  for (int64_t r : ranks) {
    const std::string p = "rank_" + std::to_string(r) + "_";
    Column& start = t.add_column(p + "skew in start time", types.ts, Unit::kMicroseconds);
    Column& end = t.add_column(p + "skew in end time", types.end, Unit::kMicroseconds);
    for (const AllvRow& a : rows) {
      const LongRow* m = member(a, r);
      if (!m) {
        start.push_null();
        end.push_null();
        continue;
      }
      push_number(start, m->e.ts - a.earliest_start, types.ts == ColumnType::kInt);
      push_number(end, a.latest_end - (m->e.ts + m->e.dur), types.end == ColumnType::kInt);
    }
  }
}

Table detail_sheet(const LongTable& lt, const std::vector<AllvRow>& rows) {
  const auto type = [](bool whole) { return whole ? ColumnType::kInt : ColumnType::kFloat; };
  const Types types{type(lt.integer_ts), type(lt.integer_dur), type(lt.integer_ts && lt.integer_dur)};
  Table t("nccl_all2allv", TableKind::kRanks);
  Column& id = t.add_column("collective_id", ColumnType::kString);
  for (const AllvRow& a : rows) id.push_string(a.first().collective_id);
  for (int f : kMeta) {
    std::vector<PyValue> values;
    for (const AllvRow& a : rows) values.push_back(a.first().e.fields[f]);
    add_py_column(t, std::string(collectives::kFieldNames[f]), values);
  }
  Column& total_mb = t.add_column("total data communicated (MB)", ColumnType::kFloat, Unit::kMegabytes);
  for (const AllvRow& a : rows) push_optional(total_mb, a.total_mb);
  std::vector<PyValue> nelems;
  for (const AllvRow& a : rows) nelems.push_back(a.total_nelems);
  add_py_column(t, "total nelems communicated", nelems);
  struct Metric {
    const char* name;
    ColumnType type;
    Unit unit;
    std::optional<double> (*get)(const AllvRow&);
  };
  const Metric metrics[] = {
      {"wall_time (us)", types.end, Unit::kMicroseconds, [](const AllvRow& a) -> std::optional<double> { return a.wall_time(); }},
      {"max_rank_dur (us)", types.dur, Unit::kMicroseconds, [](const AllvRow& a) -> std::optional<double> { return a.max_dur; }},
      {"min_rank_dur (us)", types.dur, Unit::kMicroseconds, [](const AllvRow& a) -> std::optional<double> { return a.min_dur; }},
      {"avg_rank_dur (us)", ColumnType::kFloat, Unit::kMicroseconds, [](const AllvRow& a) -> std::optional<double> { return a.avg_dur; }},
      {"throughput (GB/s)", ColumnType::kFloat, Unit::kGigabytesPerSecond, [](const AllvRow& a) { return a.throughput; }},
      {"max_rank_throughput (GB/s)", ColumnType::kFloat, Unit::kGigabytesPerSecond, [](const AllvRow& a) { return a.max_rank_throughput; }},
      {"min_rank_throughput (GB/s)", ColumnType::kFloat, Unit::kGigabytesPerSecond, [](const AllvRow& a) { return a.min_rank_throughput; }},
      {"size_imbalance", ColumnType::kFloat, Unit::kNone, [](const AllvRow& a) { return a.size_imbalance; }},
      {"skew in start time", types.ts, Unit::kMicroseconds, [](const AllvRow& a) -> std::optional<double> { return a.latest_start - a.earliest_start; }},
      {"skew in end time", types.end, Unit::kMicroseconds, [](const AllvRow& a) -> std::optional<double> { return a.latest_end - a.earliest_end; }},
  };
  for (const Metric& m : metrics) {
    Column& c = t.add_column(m.name, m.type, m.unit);
    for (const AllvRow& a : rows) {
      const std::optional<double> v = m.get(a);
      if (v && m.type == ColumnType::kInt) push_number(c, *v, true);
      else push_optional(c, v);
    }
  }
  add_rank_columns(t, lt, rows, types);
  return t;
}

// pandas' groupby aggregations of one column over a group, skipping missing values.
struct Aggregate {
  const char* suffix;
  bool keeps_type;  // min, max, sum keep an int column's type; mean, median are floats
  double (*of)(const std::vector<double>&);
};
const Aggregate kMean{"_mean", false, [](const std::vector<double>& v) { return stats::pandas_mean(v); }};
const Aggregate kMedian{"_median", false, [](const std::vector<double>& v) { return stats::median(v); }};
const Aggregate kMin{"_min", true, [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }};
const Aggregate kMax{"_max", true, [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); }};
const Aggregate kSum{"_sum", true, [](const std::vector<double>& v) { return stats::pandas_sum(v); }};

using Group = std::vector<const AllvRow*>;

void add_aggregates(Table& t, const std::vector<Group>& groups, const std::vector<size_t>& order, const std::string& name,
                    ColumnType type, Unit unit, std::optional<double> (*get)(const AllvRow&),
                    std::initializer_list<const Aggregate*> aggregates) {
  for (const Aggregate* agg : aggregates) {
    const bool as_int = agg->keeps_type && type == ColumnType::kInt;
    const std::string column = agg == &kSum ? "Total " + name : name + agg->suffix;
    Column& c = t.add_column(column, as_int ? ColumnType::kInt : ColumnType::kFloat, unit);
    for (size_t g : order) {
      std::vector<double> v;
      for (const AllvRow* a : groups[g])
        if (const auto x = get(*a); x && !std::isnan(*x)) v.push_back(*x);
      if (v.empty()) c.push_null();
      else push_number(c, agg->of(v), as_int);
    }
  }
}

// pandas "first": the first value that is not missing.
void add_first(Table& t, const std::vector<Group>& groups, const std::vector<size_t>& order, int field) {
  std::vector<PyValue> values;
  for (size_t g : order) {
    PyValue first;
    for (const AllvRow* a : groups[g])
      if (first.is_none()) first = a->first().e.fields[field];
    values.push_back(first);
  }
  add_py_column(t, std::string(collectives::kFieldNames[field]), values);
}

// Groups by (Process Group Name, dtype) in pandas' key order; rows without a dtype
// are dropped, as groupby drops missing keys.
std::vector<Group> group_by_dtype(const std::vector<AllvRow>& rows) {
  auto key_less = [](const AllvRow* a, const AllvRow* b) {
    for (int f : {collectives::kProcessGroupName, collectives::kDtype})
      if (int c = collectives::compare_keys(a->first().e.fields[f], b->first().e.fields[f])) return c < 0;
    return false;
  };
  Group kept;
  for (const AllvRow& a : rows)
    if (!a.first().e.fields[collectives::kDtype].is_none()) kept.push_back(&a);
  std::stable_sort(kept.begin(), kept.end(), key_less);
  std::vector<Group> groups;
  for (const AllvRow* a : kept) {
    if (groups.empty() || key_less(groups.back().front(), a)) groups.emplace_back();
    groups.back().push_back(a);
  }
  return groups;
}

std::optional<Table> summary_sheet(const LongTable& lt, const std::vector<AllvRow>& rows) {
  const std::vector<Group> groups = group_by_dtype(rows);
  if (groups.empty()) return std::nullopt;
  std::vector<double> totals;
  for (const Group& g : groups) {
    std::vector<double> walls;
    for (const AllvRow* a : g) walls.push_back(a->wall_time());
    totals.push_back(stats::pandas_sum(walls) / 1000);
  }
  const std::vector<size_t> order = stats::pandas_argsort_desc(totals);
  Table t("nccl_summary_all2allv", TableKind::kRanks);
  for (int f : {collectives::kProcessGroupName, collectives::kDtype}) {
    std::vector<PyValue> keys;
    for (size_t g : order) keys.push_back(groups[g].front()->first().e.fields[f]);
    add_py_column(t, std::string(collectives::kFieldNames[f]), keys);
  }
  const auto type = [](bool whole) { return whole ? ColumnType::kInt : ColumnType::kFloat; };
  const ColumnType end_type = type(lt.integer_ts && lt.integer_dur);
  add_aggregates(t, groups, order, "total data communicated (MB)", ColumnType::kFloat, Unit::kMegabytes,
                 [](const AllvRow& a) { return a.total_mb; }, {&kMean, &kMedian, &kMin, &kMax});
  add_aggregates(t, groups, order, "wall_time (us)", end_type, Unit::kMicroseconds,
                 [](const AllvRow& a) -> std::optional<double> { return a.wall_time(); }, {&kMean, &kMedian, &kMin, &kMax, &kSum});
  add_aggregates(t, groups, order, "throughput (GB/s)", ColumnType::kFloat, Unit::kGigabytesPerSecond,
                 [](const AllvRow& a) { return a.throughput; }, {&kMean, &kMedian, &kMin, &kMax});
  add_aggregates(t, groups, order, "size_imbalance", ColumnType::kFloat, Unit::kNone,
                 [](const AllvRow& a) { return a.size_imbalance; }, {&kMean, &kMax});
  add_aggregates(t, groups, order, "max_rank_dur (us)", type(lt.integer_dur), Unit::kMicroseconds,
                 [](const AllvRow& a) -> std::optional<double> { return a.max_dur; }, {&kMean, &kMax});
  add_aggregates(t, groups, order, "skew in start time", type(lt.integer_ts), Unit::kMicroseconds,
                 [](const AllvRow& a) -> std::optional<double> { return a.latest_start - a.earliest_start; }, {&kMean, &kMax});
  add_aggregates(t, groups, order, "skew in end time", end_type, Unit::kMicroseconds,
                 [](const AllvRow& a) -> std::optional<double> { return a.latest_end - a.earliest_end; }, {&kMean, &kMax});
  Column& count = t.add_column("count", ColumnType::kInt);
  for (size_t g : order) count.push_int(static_cast<int64_t>(groups[g].size()));
  for (int f : {collectives::kProcessGroupRanks, collectives::kCollectiveName, collectives::kGroupSize}) add_first(t, groups, order, f);
  Column& total_ms = t.add_column("Total wall_time (ms)", ColumnType::kFloat, Unit::kMilliseconds);
  for (size_t g : order) total_ms.push_float(totals[g]);
  return t;
}

// In split size as a list of ints: a JSON array, or its Python text "[393216, ...]".
std::optional<std::vector<int64_t>> split_sizes(const PyValue& v) {
  PyValue list = v;
  if (v.kind == Kind::kStr) {
    const size_t begin = v.s.find_first_not_of(" \t\n\r");
    if (begin == std::string::npos || v.s[begin] != '[') return std::nullopt;
    const auto parsed = literal_eval(v.s);
    if (!parsed) return std::nullopt;
    list = *parsed;
  }
  if (!list.is_seq()) return std::nullopt;
  std::vector<int64_t> out;
  for (const PyValue& x : list.items) {
    if (!collectives::is_number(x)) return std::nullopt;
    out.push_back(static_cast<int64_t>(collectives::number(x)));  // Python's int() truncates
  }
  return out;
}

std::optional<Table> heatmap_sheet(const LongTable& lt, size_t world_size) {
  if (world_size > 1024) return std::nullopt;  // up to 1024² rows, as TraceLens
  struct Pair {
    int64_t bytes = 0, count = 0;
  };
  std::map<std::pair<int64_t, int64_t>, Pair> pairs;
  for (const LongRow& r : lt.rows) {
    if (!is_all_to_allv(r)) continue;
    const auto sizes = split_sizes(r.e.fields[collectives::kInSplitSize]);
    const PyValue& group_size = r.e.fields[collectives::kGroupSize];
    const auto bytes = collectives::dtype_bytes(r.e.fields[collectives::kDtype].kind == Kind::kStr ? r.e.fields[collectives::kDtype].s : "");
    if (!sizes || !bytes) continue;
    if (!group_size.is_none() && !(collectives::is_number(group_size) && collectives::number(group_size) == static_cast<double>(sizes->size())))
      continue;
    for (size_t dst = 0; dst < sizes->size(); ++dst) {
      Pair& p = pairs[{r.rank, static_cast<int64_t>(dst)}];
      p.bytes += (*sizes)[dst] * *bytes;
      ++p.count;
    }
  }
  if (pairs.empty()) return std::nullopt;
  Table t("nccl_all2allv_heatmap", TableKind::kRanks);
  Column& src = t.add_column("src_rank", ColumnType::kInt);
  Column& dst = t.add_column("dst_rank", ColumnType::kInt);
  Column& total = t.add_column("total_sent_MB", ColumnType::kFloat, Unit::kMegabytes);
  Column& avg = t.add_column("avg_sent_MB", ColumnType::kFloat, Unit::kMegabytes);
  Column& count = t.add_column("count", ColumnType::kInt);
  for (const auto& [key, p] : pairs) {
    const double mb = static_cast<double>(p.bytes) / (1024.0 * 1024.0);
    src.push_int(key.first);
    dst.push_int(key.second);
    total.push_float(mb);
    avg.push_float(mb / static_cast<double>(p.count));
    count.push_int(p.count);
  }
  return t;
}

}  // namespace

AllToAllvSheets all_to_allv_sheets(const LongTable& lt, size_t world_size, size_t& metadata_mismatches) {
  AllToAllvSheets out;
  const std::vector<AllvRow> rows = all_to_allv_rows(lt, metadata_mismatches);
  if (rows.empty()) return out;
  out.summary = summary_sheet(lt, rows);
  out.heatmap = heatmap_sheet(lt, world_size);
  out.detail = detail_sheet(lt, rows);
  return out;
}

}  // namespace sollens::ranks
