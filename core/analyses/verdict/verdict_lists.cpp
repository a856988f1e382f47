#include "analyses/verdict/verdict_lists.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "analyses/verdict/verdict.h"
#include "analyses/verdict/verdict_format.h"

namespace sollens::verdict {

namespace {

double number(const Column* c, size_t r) {
  if (!c || c->is_null(r)) return 0;
  return c->type() == ColumnType::kFloat ? c->float_at(r) : static_cast<double>(c->int_at(r));
}

// The rows with the largest key(r) > 0, at most kTopN, largest first (ties: sheet order).
template <class Key>
std::vector<size_t> top_rows(size_t n, Key key) {
  std::vector<size_t> rows(n);
  std::iota(rows.begin(), rows.end(), size_t{0});
  std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) { return key(a) > key(b); });
  while (!rows.empty() && !(key(rows.back()) > 0)) rows.pop_back();
  if (rows.size() > kTopN) rows.resize(kTopN);
  return rows;
}

// The first name in a Python list repr ("['GEMM', 'elementwise']" → GEMM), as
// ops_summary's Categories holds them; "" when none.
std::string first_listed(const std::string& list) {
  const size_t open = list.find_first_of("'\"");
  if (open == std::string::npos) return "";
  const size_t close = list.find(list[open], open + 1);
  return close == std::string::npos ? "" : list.substr(open + 1, close - open - 1);
}

std::string key(const char* prefix, size_t i) { return std::string(prefix) + "." + std::to_string(i + 1); }

}  // namespace

void add_top_ops(VerdictRows& rows, const Table& t) {
  const Column* name = t.find("name");
  const Column* ms = t.find("total_direct_kernel_time_ms");
  const Column* count = t.find("Count");
  const Column* share = t.find("Percentage (%)");
  const Column* categories = t.find("Categories");
  if (!name || !ms) return;
  const std::vector<size_t> top = top_rows(t.num_rows(), [&](size_t r) { return number(ms, r); });
  for (size_t i = 0; i < top.size(); ++i) {
    const size_t r = top[i];
    const std::string& op = name->string_at(r);
    rows.add(key("top_op", i), number(ms, r), "ms",
             op + ": " + fmt_num(number(ms, r)) + " ms of GPU time (" + fmt_pct(number(share, r)) + " %), " +
                 counted(number(count, r), "call", "calls"),
             "ops", op, categories && !categories->is_null(r) ? first_listed(categories->string_at(r)) : "");
  }
}

void add_top_kernels(VerdictRows& rows, const Table& t) {
  const Column* name = t.find("Kernel name");
  const Column* sum = t.find("Kernel duration (µs)_sum");
  const Column* count = t.find("Kernel duration (µs)_count");
  const Column* share = t.find("Percent of kernels time (%)");
  if (!name || !sum) return;
  const std::vector<size_t> top = top_rows(t.num_rows(), [&](size_t r) { return number(sum, r); });
  for (size_t i = 0; i < top.size(); ++i) {
    const size_t r = top[i];
    const std::string& kernel = name->string_at(r);
    const double ms = number(sum, r) / 1e3;
    rows.add(key("top_kernel", i), ms, "ms",
             kernel + ": " + fmt_num(ms) + " ms (" + fmt_pct(number(share, r)) + " % of kernel time), " +
                 counted(number(count, r), "launch", "launches"),
             "kernels", kernel);
  }
}

void add_sol_gaps(VerdictRows& rows, const Table& t) {
  const Column* function = t.find("function");
  const Column* est = t.find("estimated_time_ms");
  const Column* meas = t.find("measured_time_ms");
  const Column* eff = t.find("efficiency_pct");
  if (!function || !est || !meas) return;
  auto lost = [&](size_t r) { return number(meas, r) - number(est, r); };
  const std::vector<size_t> top = top_rows(t.num_rows(), lost);
  for (size_t i = 0; i < top.size(); ++i) {
    const size_t r = top[i];
    const std::string& f = function->string_at(r);
    rows.add(key("sol_gap", i), lost(r), "ms",
             f + ": " + fmt_num(lost(r)) + " ms above its speed of light (" + fmt_num(number(meas, r)) +
                 " ms measured, " + fmt_num(number(est, r)) + " ms SOL, " + fmt_pct(number(eff, r)) + " % efficient)",
             "sol", f);
  }
}

}  // namespace sollens::verdict
