#include "analyses/hta/cupti_counters.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/hta/counter_series.h"
#include "store/raw_args.h"

namespace sollens::hta {

namespace {

constexpr std::string_view kRangeCategory = "cuda_profiler_range";

// The top-level keys of an args object's text, as written (Kineto's counter names
// need no escapes). ArgsReader reads values by key; this only finds which keys exist.
std::vector<std::string_view> top_level_keys(std::string_view object) {
  std::vector<std::string_view> keys;
  int depth = 0;
  bool expecting_key = false;
  for (size_t k = 0; k < object.size(); ++k) {
    const char c = object[k];
    if (c == '"') {
      size_t close = k + 1;
      while (close < object.size() && object[close] != '"') close += object[close] == '\\' ? 2 : 1;
      if (depth == 1 && expecting_key) keys.push_back(object.substr(k + 1, close - k - 1));
      expecting_key = false;
      k = close;
    } else if (c == '{' || c == '[') {
      ++depth;
      expecting_key = depth == 1 && c == '{';
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 1) {
      expecting_key = true;
    }
  }
  return keys;
}

std::vector<uint32_t> in_time_order(const HtaTrace& trace, std::vector<uint32_t> rows) {
  std::vector<double> keys(rows.size());
  for (size_t k = 0; k < rows.size(); ++k) keys[k] = trace.ts(rows[k]);
  std::vector<uint32_t> ordered;
  ordered.reserve(rows.size());
  for (uint32_t k : numpy_quicksort_order(keys)) ordered.push_back(rows[k]);
  return ordered;
}

struct RangesAndLaunches {
  std::vector<uint32_t> ranges;    // cuda_profiler_range events, by HTA start
  std::vector<uint32_t> launches;  // cudaLaunchKernel* runtime calls, by HTA start
};

RangesAndLaunches ranges_and_launches(const HtaTrace& trace) {
  const EventStore& s = trace.store();
  RangesAndLaunches r;
  for (uint32_t i = 0; i < s.size(); ++i) {
    if (s.phase[i] != Phase::kComplete) continue;
    const std::string_view cat = s.str(s.cat[i]);
    if (cat == kRangeCategory) r.ranges.push_back(i);
    else if (cat.starts_with("cuda_runtime") && s.name_of(i).starts_with("cudaLaunchKernel")) r.launches.push_back(i);
  }
  r.ranges = in_time_order(trace, std::move(r.ranges));
  r.launches = in_time_order(trace, std::move(r.launches));
  return r;
}

// The cpu_ops the launch runs under, outermost first.
std::vector<uint32_t> operator_stack(const EventStore& s, const TraceTree& tree, uint32_t launch) {
  std::vector<uint32_t> stack;
  for (int32_t e = tree.parent[launch]; e != kNoParent; e = tree.parent[static_cast<uint32_t>(e)])
    if (s.category[static_cast<uint32_t>(e)] == Category::kCpuOp) stack.push_back(static_cast<uint32_t>(e));
  std::reverse(stack.begin(), stack.end());
  return stack;
}

std::vector<std::string_view> counter_names(const EventStore& s, const std::vector<uint32_t>& ranges) {
  std::vector<std::string_view> names;
  for (uint32_t r : ranges)
    if (s.has_args(r))
      for (std::string_view key : top_level_keys(s.args_json(r))) names.push_back(key);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// Each counter's values over the ranges (−1 where absent); integral columns as ints.
void add_counter_columns(Table& t, const EventStore& s, const std::vector<uint32_t>& ranges) {
  const std::vector<std::string_view> names = counter_names(s, ranges);
  std::vector<std::vector<double>> values(names.size(), std::vector<double>(ranges.size(), -1));
  ArgsReader args(s);
  std::vector<PyValue> read(names.size());
  for (size_t r = 0; r < ranges.size(); ++r) {
    args.read(ranges[r], names, read);
    for (size_t c = 0; c < names.size(); ++c) {
      if (read[c].kind == PyValue::Kind::kInt) values[c][r] = static_cast<double>(read[c].i);
      else if (read[c].kind == PyValue::Kind::kFloat) values[c][r] = read[c].f;
    }
  }
  for (size_t c = 0; c < names.size(); ++c) {
    const bool integral = std::all_of(values[c].begin(), values[c].end(),
                                      [](double v) { return v == std::floor(v) && std::abs(v) < 9e15; });
    Column& column = t.add_column(std::string(names[c]), integral ? ColumnType::kInt : ColumnType::kFloat);
    for (double v : values[c]) integral ? column.push_int(static_cast<int64_t>(v)) : column.push_float(v);
  }
}

void add_operator_columns(Table& t, const HtaTrace& trace, const TraceTree& tree, const RangesAndLaunches& r) {
  const EventStore& s = trace.store();
  Column& stack = t.add_column("op_stack", ColumnType::kString);
  Column& top = t.add_column("top_level_op", ColumnType::kString);
  Column& bottom = t.add_column("bottom_level_op", ColumnType::kString);
  const bool paired = r.ranges.size() == r.launches.size();
  for (size_t k = 0; k < r.ranges.size(); ++k) {
    if (!paired) {
      stack.push_null();
      top.push_null();
      bottom.push_null();
      continue;
    }
    const std::vector<uint32_t> ops = operator_stack(s, tree, r.launches[k]);
    std::string joined;
    for (uint32_t op : ops) joined.append(joined.empty() ? "" : " > ").append(s.name_of(op));
    stack.push_string(joined);
    top.push_string(ops.empty() ? std::string_view() : s.name_of(ops.front()));
    bottom.push_string(ops.empty() ? std::string_view() : s.name_of(ops.back()));
  }
}

}  // namespace

Table cupti_counters_table(const HtaTrace& trace, const TraceTree& tree) {
  const EventStore& s = trace.store();
  const RangesAndLaunches r = ranges_and_launches(trace);
  Table t("cupti_counters", TableKind::kHta);
  Column& rank = t.add_column("rank", ColumnType::kInt);
  Column& name = t.add_column("name", ColumnType::kString);
  Column& ts = t.add_column("ts", ColumnType::kFloat, Unit::kTimestamp);
  Column& dur = t.add_column("dur", ColumnType::kFloat, Unit::kMicroseconds);
  for (uint32_t e : r.ranges) {
    rank.push_int(trace.rank());
    name.push_string(s.name_of(e));
    ts.push_float(trace.ts(e));
    dur.push_float(trace.dur(e));
  }
  add_counter_columns(t, s, r.ranges);
  add_operator_columns(t, trace, tree, r);
  return t;
}

}  // namespace sollens::hta
