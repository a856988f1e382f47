#include "analyses/ranks/matched_collectives.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sollens::ranks {

using collectives::ColumnDtype;
using collectives::kFieldCount;
using Kind = PyValue::Kind;

namespace {

bool whole(double v) { return std::floor(v) == v && std::fabs(v) < 9.0e15; }

}  // namespace

void push_number(Column& c, double v, bool as_int) {
  if (as_int) c.push_int(static_cast<int64_t>(v));
  else c.push_float(v);
}

void push_optional(Column& c, std::optional<double> v) {
  if (v && !std::isnan(*v)) c.push_float(*v);
  else c.push_null();
}

void push_value(Column& c, ColumnDtype dtype, const PyValue& v) {
  if (v.is_none()) c.push_null();
  else collectives::push_key(c, dtype, v);
}

LongTable build_long(const std::vector<RankSummary>& ranks) {
  LongTable t;
  for (const RankSummary& r : ranks)
    for (const RankCollective& c : r.collectives) t.rows.push_back(LongRow{r.rank, c.event, c.source, 0, {}});
  for (int f = 0; f < kFieldCount; ++f) {
    collectives::DtypeInference d;
    for (const LongRow& row : t.rows) d.add(row.e.fields[f]);
    t.dtypes[f] = d.dtype();
    if (t.dtypes[f] == ColumnDtype::kFloat)
      for (LongRow& row : t.rows)
        if (row.e.fields[f].is_int()) row.e.fields[f] = PyValue::real(static_cast<double>(row.e.fields[f].i));
  }
  for (const LongRow& row : t.rows) {
    t.integer_ts = t.integer_ts && whole(row.e.ts);
    t.integer_dur = t.integer_dur && whole(row.e.dur);
  }
  // Simplified mode: no process group anywhere and one stream per rank.
  bool pg_missing = true;
  std::map<int64_t, std::vector<const PyValue*>> streams;
  for (const LongRow& row : t.rows) {
    const PyValue& pg = row.e.fields[collectives::kProcessGroupName];
    if (!pg.is_none() && !(pg.kind == Kind::kStr && pg.s == "Unknown_Group")) pg_missing = false;
    const PyValue& stream = row.e.fields[collectives::kStream];
    auto& seen = streams[row.rank];
    if (!stream.is_none() && std::none_of(seen.begin(), seen.end(), [&](const PyValue* v) {
          return collectives::same_key(*v, stream);
        }))
      seen.push_back(&stream);
  }
  t.simplified = pg_missing && std::all_of(streams.begin(), streams.end(), [](const auto& s) { return s.second.size() <= 1; });
  for (LongRow& row : t.rows) {
    PyValue& pg = row.e.fields[collectives::kProcessGroupName];
    if (t.simplified) pg = PyValue::str("all");
    else if (pg.is_none()) pg = PyValue::str("Unknown_Group");
  }
  t.dtypes[collectives::kProcessGroupName] = ColumnDtype::kObject;
  // index_in_group: the order of ts within (group, rank), ties in row order.
  std::map<std::pair<std::string, int64_t>, std::vector<size_t>> groups;
  for (size_t i = 0; i < t.rows.size(); ++i) {
    const LongRow& row = t.rows[i];
    groups[{t.simplified ? std::string() : collectives::cell_text(row.e.fields[collectives::kProcessGroupName]), row.rank}]
        .push_back(i);
  }
  for (auto& [key, members] : groups) {
    std::stable_sort(members.begin(), members.end(), [&](size_t a, size_t b) { return t.rows[a].e.ts < t.rows[b].e.ts; });
    for (size_t k = 0; k < members.size(); ++k) {
      LongRow& row = t.rows[members[k]];
      row.index_in_group = static_cast<int64_t>(k);
      row.collective_id = t.simplified ? std::to_string(k) : key.first + "_" + std::to_string(k);
    }
  }
  return t;
}

std::vector<std::vector<const LongRow*>> rows_by_collective(const LongTable& lt) {
  std::vector<std::vector<const LongRow*>> out;
  std::map<std::string, size_t> index;
  for (const LongRow& r : lt.rows) {
    const auto [it, added] = index.try_emplace(r.collective_id, out.size());
    if (added) out.emplace_back();
    out[it->second].push_back(&r);
  }
  return out;
}

}  // namespace sollens::ranks
