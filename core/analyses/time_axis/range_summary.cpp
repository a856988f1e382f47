#include "analyses/time_axis/range_summary.h"

#include <algorithm>
#include <map>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace sollens {
namespace {

struct Busy {
  double us = 0;
  int64_t count = 0;
};

// The names of the columns of `t` that are not there, or "".
std::string missing_columns(const Table& t, std::initializer_list<const char*> names) {
  std::string missing;
  for (const char* name : names)
    if (!t.find(name)) missing += (missing.empty() ? "" : ", ") + std::string(name);
  return missing;
}

double union_length(std::vector<std::pair<double, double>>& spans) {
  std::sort(spans.begin(), spans.end());
  double total = 0, open = 0, close = 0;
  bool any = false;
  for (const auto& [a, b] : spans) {
    if (any && a <= close) {
      close = std::max(close, b);
      continue;
    }
    if (any) total += close - open;
    open = a;
    close = b;
    any = true;
  }
  return any ? total + close - open : 0;
}

}  // namespace

Result<Table> range_summary(const Table& lanes, const Table& events, double start, double end) {
  std::string missing = missing_columns(events, {"lane", "depth", "start_us", "dur_us", "kind", "category", "name"});
  if (missing.empty() && !lanes.find("kind")) missing = "kind (lanes)";
  if (!missing.empty())
    return Status(Code::internal_error, "the time axis sheets have no " + missing + " column: they are not time_axis.h's");
  Table t("time_axis_range_summary", TableKind::kTimeline);
  Column& section = t.add_column("section", ColumnType::kString);
  Column& lane_kind = t.add_column("lane_kind", ColumnType::kString);
  Column& category = t.add_column("category", ColumnType::kString);
  Column& name = t.add_column("name", ColumnType::kString);
  Column& busy_us = t.add_column("busy_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& share = t.add_column("share_of_range", ColumnType::kFloat, Unit::kPercent);
  Column& count = t.add_column("count", ColumnType::kInt);
  const double range = end - start;
  if (!(range > 0)) return t;

  const Column &lane = *events.find("lane"), &depth = *events.find("depth"), &ts = *events.find("start_us"),
               &dur = *events.find("dur_us"), &kind = *events.find("kind"), &cat = *events.find("category"),
               &ev_name = *events.find("name"), &lane_kinds = *lanes.find("kind");
  std::map<std::pair<std::string, std::string>, Busy> by_kind;
  std::map<std::string, Busy> by_kernel;
  std::vector<std::pair<double, double>> gpu;
  for (size_t r = 0; r < events.num_rows(); ++r) {
    const double a = std::max(start, ts.float_at(r)), b = std::min(end, ts.float_at(r) + dur.float_at(r));
    if (b < a || (b == a && dur.float_at(r) > 0)) continue;
    const std::string& lk = lane_kinds.string_at(static_cast<size_t>(lane.int_at(r)));
    if (lk == "gpu") gpu.emplace_back(a, b);
    if (depth.int_at(r) == 0) {
      Busy& g = by_kind[{lk, cat.string_at(r)}];
      g.us += b - a;
      ++g.count;
    }
    if (kind.string_at(r) == "kernel") {
      Busy& k = by_kernel[ev_name.string_at(r)];
      k.us += b - a;
      ++k.count;
    }
  }
  auto row = [&](const char* sec, std::string_view lk, std::string_view c, std::string_view n, double us,
                 const int64_t* events_counted) {
    section.push_string(sec);
    lane_kind.push_string(lk);
    category.push_string(c);
    name.push_string(n);
    busy_us.push_float(us);
    share.push_float(100.0 * us / range);
    if (events_counted) count.push_int(*events_counted);
    else count.push_null();
  };
  for (const auto& [key, b] : by_kind) row("busy", key.first, key.second, "", b.us, &b.count);
  row("gpu_idle", "gpu", "", "", range - union_length(gpu), nullptr);
  std::vector<std::pair<std::string, Busy>> kernels(by_kernel.begin(), by_kernel.end());
  const size_t top = std::min<size_t>(5, kernels.size());
  std::partial_sort(kernels.begin(), kernels.begin() + static_cast<std::ptrdiff_t>(top), kernels.end(),
                    [](const auto& x, const auto& y) { return x.second.us > y.second.us; });
  for (size_t i = 0; i < top; ++i)
    row("top_kernel", "gpu", "", kernels[i].first, kernels[i].second.us, &kernels[i].second.count);
  return t;
}

}  // namespace sollens
