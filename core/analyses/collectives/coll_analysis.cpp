#include "analyses/collectives/coll_analysis.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <string>

#include "analyses/collectives/bus_bandwidth.h"
#include "analyses/collectives/group_aggregates.h"
#include "base/stats.h"

namespace sollens {

namespace {

using collectives::CollectiveEvent;
using collectives::ColumnDtype;
using collectives::DtypeInference;
using collectives::kFieldCount;

constexpr int64_t kRank = 0;  // the perf report reads one file: rank = its index, 0

ColumnDtype infer(const std::vector<CollectiveEvent>& events, int field) {
  DtypeInference d;
  for (const CollectiveEvent& e : events) d.add(e.fields[field]);
  return d.dtype();
}

// pandas stores the ints of a float64 column as floats: 2 prints as 2.0 from then on.
void coerce_to_float(std::vector<CollectiveEvent>& events, int field) {
  for (CollectiveEvent& e : events) {
    PyValue& v = e.fields[field];
    if (v.kind == PyValue::Kind::kInt) v = PyValue::real(static_cast<double>(v.i));
  }
}

// NcclAnalyser.build_df_long: simplified mode when no kernel has a process group and
// they all run on one stream; else missing names become Unknown_Group.
void fill_process_group_names(std::vector<CollectiveEvent>& events) {
  bool pg_all_missing = true;
  for (const CollectiveEvent& e : events) {
    const PyValue& pg = e.fields[collectives::kProcessGroupName];
    if (!pg.is_none() && !(pg.kind == PyValue::Kind::kStr && pg.s == "Unknown_Group")) pg_all_missing = false;
  }
  const PyValue* first_stream = nullptr;
  bool single_stream = true;
  for (const CollectiveEvent& e : events) {
    const PyValue& s = e.fields[collectives::kStream];
    if (s.is_none()) continue;  // nunique() ignores missing values
    if (!first_stream) first_stream = &s;
    else if (!collectives::same_key(*first_stream, s)) single_stream = false;
  }
  const bool simplified = pg_all_missing && single_stream;
  for (CollectiveEvent& e : events) {
    PyValue& pg = e.fields[collectives::kProcessGroupName];
    if (simplified) pg = PyValue::str("all");
    else if (pg.is_none()) pg = PyValue::str("Unknown_Group");
  }
}

int compare_rows(const CollectiveEvent& a, const CollectiveEvent& b) {
  for (int f = 0; f < kFieldCount; ++f)
    if (int c = collectives::compare_keys(a.fields[f], b.fields[f])) return c;
  return 0;
}

struct Group {
  const CollectiveEvent* first = nullptr;
  collectives::GroupAggregates aggregates;
};

void push_optional(Column& c, std::optional<double> v) {
  if (v) c.push_float(*v);
  else c.push_null();
}

void add_bandwidth_columns(Table& t, const std::vector<Group>& groups, const std::vector<size_t>& order) {
  Column& full = t.add_column("Full msg size (MB)", ColumnType::kFloat, Unit::kMegabytes);
  Column& algo = t.add_column("algo bw (GB/s)", ColumnType::kFloat, Unit::kGigabytesPerSecond);
  Column& bus = t.add_column("bus bw (GB/s)", ColumnType::kFloat, Unit::kGigabytesPerSecond);
  for (size_t g : order) {
    const Group& group = groups[g];
    const PyValue& name = group.first->fields[collectives::kCollectiveName];
    const PyValue& size = group.first->fields[collectives::kGroupSize];
    const collectives::CollectiveKind kind =
        name.kind == PyValue::Kind::kStr ? collectives::collective_kind(name.s) : collectives::CollectiveKind::kUnknown;
    const collectives::GroupAggregates& aggregates = group.aggregates;
    const std::optional<double> full_mb =
        collectives::full_message_is_output(kind) ? aggregates.out_mb : aggregates.in_mb;
    std::optional<double> algo_bw, bus_bw;
    if (full_mb) {
      algo_bw = collectives::algo_bandwidth_gbps(*full_mb, stats::pandas_mean(aggregates.durs));
      const std::optional<double> factor =
          collectives::is_number(size) ? collectives::bus_bandwidth_factor(kind, static_cast<int64_t>(collectives::number(size)))
                           : std::nullopt;
      if (algo_bw && factor) bus_bw = *algo_bw * *factor;
    }
    push_optional(full, full_mb);
    push_optional(algo, algo_bw);
    push_optional(bus, bus_bw);
  }
}

}  // namespace

Table coll_analysis_table(const EventStore& store, const CollAnalysisOptions& options) {
  return coll_analysis_table(collectives::extract_collective_events(store), options);
}

Table coll_analysis_table(std::vector<CollectiveEvent> events, const CollAnalysisOptions& options) {
  Table t("coll_analysis", TableKind::kCollectives);
  if (events.empty()) return t;  // TraceLens: an empty DataFrame, no sheet

  // Column dtypes as pandas infers them for df_long, before the fill.
  std::array<ColumnDtype, kFieldCount> dtypes;
  for (int f = 0; f < kFieldCount; ++f) {
    dtypes[f] = infer(events, f);
    if (dtypes[f] == ColumnDtype::kFloat) coerce_to_float(events, f);
  }
  fill_process_group_names(events);
  dtypes[collectives::kProcessGroupName] = infer(events, collectives::kProcessGroupName);
  // A column of whole-number durations is an int64 column (legacy integer-µs traces):
  // its sum, min and max print without ".0". Kineto writes fractional µs otherwise.
  const bool integer_durations = std::all_of(events.begin(), events.end(), [](const CollectiveEvent& e) {
    return std::floor(e.dur) == e.dur && std::fabs(e.dur) < 9.0e15;
  });

  // groupby(dropna=True, sort=True): rows with a missing key go; groups in key order,
  // each group's rows in file order.
  std::vector<const CollectiveEvent*> rows;
  for (const CollectiveEvent& e : events)
    if (std::none_of(e.fields.begin(), e.fields.end(), [](const PyValue& v) { return v.is_none(); }))
      rows.push_back(&e);
  std::stable_sort(rows.begin(), rows.end(),
                   [](const CollectiveEvent* a, const CollectiveEvent* b) { return compare_rows(*a, *b) < 0; });
  std::vector<Group> groups;
  for (const CollectiveEvent* e : rows) {
    if (groups.empty() || compare_rows(*groups.back().first, *e) != 0) groups.push_back(Group{e, {}});
    groups.back().aggregates.add(e->dur, e->in_msg_mb, e->out_msg_mb);
  }

  std::vector<double> sums(groups.size());
  for (size_t g = 0; g < groups.size(); ++g) sums[g] = groups[g].aggregates.dur_sum();
  const std::vector<size_t> order = stats::pandas_argsort_desc(sums);  // sort_values("dur_sum", ascending=False)

  Column& rank = t.add_column("rank", ColumnType::kInt);
  std::array<Column*, kFieldCount> keys;
  for (int f = 0; f < kFieldCount; ++f)
    keys[f] = &t.add_column(std::string(collectives::kFieldNames[f]), collectives::column_type(dtypes[f]));
  collectives::GroupAggregateColumns aggregates(t, integer_durations);
  for (size_t g : order) {
    const Group& group = groups[g];
    rank.push_int(kRank);
    for (int f = 0; f < kFieldCount; ++f) collectives::push_key(*keys[f], dtypes[f], group.first->fields[f]);
    aggregates.push(group.aggregates);
  }
  if (options.bandwidth_columns) add_bandwidth_columns(t, groups, order);
  return t;
}

}  // namespace sollens
