#include "analyses/ranks/straggler_verdict.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <string>

namespace sollens::ranks {

namespace {

std::optional<double> number(const Column* c, size_t row) {
  if (!c || c->is_null(row)) return std::nullopt;
  if (c->type() == ColumnType::kInt) return static_cast<double>(c->int_at(row));
  if (c->type() == ColumnType::kFloat) return c->float_at(row);
  return std::nullopt;
}

std::string text(const Column* c, size_t row) {
  if (!c || c->is_null(row)) return "";
  if (c->type() == ColumnType::kString) return c->string_at(row);
  if (c->type() == ColumnType::kInt) return std::to_string(c->int_at(row));
  return "";
}

std::string fixed(double v, int digits) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

// The ranks nccl_implicit_sync has columns for (rank_R_ts), in column order.
std::vector<int64_t> sync_ranks(const Table& sync) {
  std::vector<int64_t> out;
  for (size_t c = 0; c < sync.num_columns(); ++c) {
    const std::string& n = sync.column(c).name();
    if (n.starts_with("rank_") && n.ends_with("_ts")) out.push_back(std::stoll(n.substr(5, n.size() - 8)));
  }
  return out;
}

const Column* rank_column(const Table& sync, int64_t rank, const char* suffix) {
  return sync.find("rank_" + std::to_string(rank) + suffix);
}

struct Lateness {
  double late_us = 0;
  double wait_us = 0;
};

// Per rank, Σ over the collectives of its start − the earliest start, and its wait.
std::map<int64_t, Lateness> lateness(const Table& sync, const std::vector<int64_t>& ranks) {
  std::map<int64_t, Lateness> out;
  for (size_t r = 0; r < sync.num_rows(); ++r) {
    std::optional<double> earliest;
    for (int64_t k : ranks)
      if (auto ts = number(rank_column(sync, k, "_ts"), r)) earliest = std::min(earliest.value_or(*ts), *ts);
    if (!earliest) continue;
    for (int64_t k : ranks) {
      if (auto ts = number(rank_column(sync, k, "_ts"), r)) out[k].late_us += *ts - *earliest;
      if (auto wait = number(rank_column(sync, k, "_wait_time"), r)) out[k].wait_us += *wait;
    }
  }
  return out;
}

Table lateness_table(const std::map<int64_t, Lateness>& late) {
  Table t("rank_lateness", TableKind::kRanks);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& late_ms = t.add_column("late_ms", ColumnType::kFloat, Unit::kMilliseconds);
  Column& wait_ms = t.add_column("wait_ms", ColumnType::kFloat, Unit::kMilliseconds);
  for (const auto& [k, l] : late) {
    rank.push_int(k);
    late_ms.push_float(l.late_us / 1e3);
    wait_ms.push_float(l.wait_us / 1e3);
  }
  return t;
}

// The ranks' GPU time (gpu_timeline_ranks' total_time ms), by rank.
std::map<int64_t, double> total_time_ms(const std::vector<Table>& sheets) {
  std::map<int64_t, double> out;
  const Table* t = find_sheet(sheets, "gpu_timeline_ranks");
  if (!t) return out;
  const Column* rank = t->find("rank");
  const Column* total = t->find("total_time ms");
  for (size_t r = 0; r < t->num_rows(); ++r) {
    auto k = number(rank, r);
    auto ms = number(total, r);
    if (k && ms) out[static_cast<int64_t>(*k)] = *ms;
  }
  return out;
}

struct Verdict {
  int64_t rank = 0;
  int64_t arrived_last = 0, collectives = 0;
  double others_wait_ms = 0;                // mean over the other ranks
  std::optional<double> others_wait_pct;    // of their mean GPU time
  std::optional<size_t> worst;              // nccl_implicit_sync row, largest skew it caused
  double worst_skew_ms = 0;
};

Verdict straggler(const Table& summary, const Table& sync, const std::vector<int64_t>& ranks,
                  const std::map<int64_t, double>& totals) {
  Verdict v;
  v.rank = static_cast<int64_t>(number(summary.find("rank"), 0).value_or(0));
  v.arrived_last = static_cast<int64_t>(number(summary.find("times_arrived_last"), 0).value_or(0));
  v.collectives = static_cast<int64_t>(number(summary.find("num_collectives"), 0).value_or(0));
  const Column* skew = sync.find("skew in start time");
  std::map<int64_t, double> waited;  // each other rank's wait at the collectives the straggler came last to
  for (size_t r = 0; r < sync.num_rows(); ++r) {
    // Last to arrive: the straggler waited for nobody (wait = latest start − its start = 0).
    if (number(rank_column(sync, v.rank, "_wait_time"), r).value_or(-1) != 0) continue;
    for (int64_t k : ranks)
      if (k != v.rank)
        if (auto w = number(rank_column(sync, k, "_wait_time"), r)) waited[k] += *w;
    const double s = number(skew, r).value_or(0);
    if (!v.worst || s / 1e3 > v.worst_skew_ms) {
      v.worst = r;
      v.worst_skew_ms = s / 1e3;
    }
  }
  double wait_sum = 0, total_sum = 0;
  size_t with_total = 0;
  for (const auto& [k, w] : waited) {
    wait_sum += w;
    if (auto it = totals.find(k); it != totals.end()) {
      total_sum += it->second;
      ++with_total;
    }
  }
  if (!waited.empty()) v.others_wait_ms = wait_sum / static_cast<double>(waited.size()) / 1e3;
  if (with_total == waited.size() && total_sum > 0)
    v.others_wait_pct = 100 * v.others_wait_ms / (total_sum / static_cast<double>(with_total));
  return v;
}

std::string sentence(const Verdict& v, const Table& sync) {
  std::string s = "Rank " + std::to_string(v.rank) + " is the straggler: it arrived last at " +
                  std::to_string(v.arrived_last) + " of " + std::to_string(v.collectives) + " collectives";
  if (v.arrived_last == 0 || !v.worst) return s + ", and waited least for the others.";
  s += ", and each other rank waited for it " + fixed(v.others_wait_ms, 3) + " ms on average";
  if (v.others_wait_pct) s += " (" + fixed(*v.others_wait_pct, 1) + " % of their GPU time)";
  const size_t w = *v.worst;
  const std::string name = text(sync.find("Collective name"), w);
  s += "; most at " + (name.empty() ? std::string("a collective") : name) + " (collective " + text(sync.find("collective_id"), w) + ")";
  if (auto first = number(sync.find("earliest arrival rank"), w))
    s += ", which it started " + fixed(v.worst_skew_ms, 3) + " ms after rank " + std::to_string(static_cast<int64_t>(*first));
  return s + ".";
}

Table verdict_table(const Verdict& v, const Table& sync) {
  Table t("straggler_verdict", TableKind::kRanks);
  t.add_column("verdict", ColumnType::kString).push_string(sentence(v, sync));
  t.add_column("rank", ColumnType::kInt).push_int(v.rank);
  t.add_column("times_arrived_last", ColumnType::kInt).push_int(v.arrived_last);
  t.add_column("num_collectives", ColumnType::kInt).push_int(v.collectives);
  t.add_column("others_wait_ms", ColumnType::kFloat, Unit::kMilliseconds).push_float(v.others_wait_ms);
  Column& pct = t.add_column("others_wait_pct_of_gpu_time", ColumnType::kFloat, Unit::kPercent);
  if (v.others_wait_pct) pct.push_float(*v.others_wait_pct);
  else pct.push_null();
  Column& id = t.add_column("worst_collective_id", ColumnType::kString);
  Column& name = t.add_column("worst_collective", ColumnType::kString);
  Column& skew = t.add_column("worst_skew_ms", ColumnType::kFloat, Unit::kMilliseconds);
  Column& first = t.add_column("worst_earliest_rank", ColumnType::kInt);
  if (v.worst) {
    id.push_string(text(sync.find("collective_id"), *v.worst));
    name.push_string(text(sync.find("Collective name"), *v.worst));
    skew.push_float(v.worst_skew_ms);
    if (auto k = number(sync.find("earliest arrival rank"), *v.worst)) first.push_int(static_cast<int64_t>(*k));
    else first.push_null();
  } else {
    id.push_null();
    name.push_null();
    skew.push_null();
    first.push_null();
  }
  return t;
}

}  // namespace

std::vector<Table> straggler_verdict_sheets(const std::vector<Table>& sheets) {
  const Table* summary = find_sheet(sheets, "straggler_summary");
  const Table* sync = find_sheet(sheets, "nccl_implicit_sync");
  if (!summary || !sync || summary->num_rows() == 0 || sync->num_rows() == 0) return {};
  const std::vector<int64_t> ranks = sync_ranks(*sync);
  std::vector<Table> out;
  out.push_back(lateness_table(lateness(*sync, ranks)));
  out.push_back(verdict_table(straggler(*summary, *sync, ranks, total_time_ms(sheets)), *sync));
  return out;
}

}  // namespace sollens::ranks
