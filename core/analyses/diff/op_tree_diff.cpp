#include "analyses/diff/op_tree_diff.h"

#include <algorithm>
#include <cmath>
#include <string_view>
#include <unordered_map>

#include "analyses/diff/sequence_alignment.h"
#include "store/categories.h"

namespace sollens {

namespace {

bool is_tree_op(Category c) { return c == Category::kCpuOp || c == Category::kUserAnnotation; }

// One run's tree with names as ids shared by both runs and subtree GPU time per op.
class RunTree {
 public:
  RunTree(const TraceView& v, std::unordered_map<std::string_view, uint32_t>& ids) : view_(v), ids_(ids) {
    gpu_us_.assign(v.store.size(), -1);
  }
  uint32_t name_id(uint32_t e) const {
    const auto [it, added] = ids_.try_emplace(view_.store.name_of(e), static_cast<uint32_t>(ids_.size()));
    (void)added;
    return it->second;
  }
  std::string_view name(uint32_t e) const { return view_.store.name_of(e); }
  std::vector<uint32_t> ordered(std::vector<uint32_t> events) const {
    std::stable_sort(events.begin(), events.end(),
                     [&](uint32_t a, uint32_t b) { return view_.store.ts[a] < view_.store.ts[b]; });
    return events;
  }
  std::vector<uint32_t> op_children(uint32_t e) const {
    std::vector<uint32_t> out;
    for (uint32_t c : view_.tree.children(e))
      if (is_tree_op(view_.store.category[c])) out.push_back(c);
    return ordered(out);
  }
  std::vector<uint32_t> roots() const { return ordered(view_.tree.cpu_roots); }
  std::vector<uint32_t> ids(const std::vector<uint32_t>& events) const {
    std::vector<uint32_t> out;
    for (uint32_t e : events) out.push_back(name_id(e));
    return out;
  }
  // GPU time launched anywhere under e.
  double gpu_us(uint32_t e) {
    if (gpu_us_[e] >= 0) return gpu_us_[e];
    double sum = 0;
    for (uint32_t c : view_.tree.children(e))
      sum += is_gpu_activity(view_.store.category[c]) ? view_.store.dur[c] : gpu_us(c);
    return gpu_us_[e] = sum;
  }

 private:
  const TraceView& view_;
  std::unordered_map<std::string_view, uint32_t>& ids_;
  std::vector<double> gpu_us_;
};

struct PathRow {
  std::string name;
  size_t depth = 0;
  size_t count[2] = {0, 0};
  double gpu_us[2] = {0, 0};
  size_t matched = 0;
};

class TreeMerger {
 public:
  TreeMerger(RunTree& a, RunTree& b) : runs_{&a, &b} {}

  void merge_lists(const std::vector<uint32_t>& a, const std::vector<uint32_t>& b, const std::string& prefix,
                   size_t depth) {
    for (const AlignStep& s : align_sequences(runs_[0]->ids(a), runs_[1]->ids(b))) {
      if (s.op == AlignOp::kMatch) merge_pair(a[s.a], b[s.b], prefix, depth);
      else if (s.op == AlignOp::kDelete) one_side(0, a[s.a], prefix, depth);
      else one_side(1, b[s.b], prefix, depth);
    }
  }

  std::vector<std::pair<std::string, PathRow>> rows() && {
    std::vector<std::pair<std::string, PathRow>> out;
    for (const std::string& p : order_) out.emplace_back(p, std::move(paths_[p]));
    return out;
  }

 private:
  PathRow& row(const std::string& path, std::string_view name, size_t depth) {
    auto [it, added] = paths_.try_emplace(path);
    if (added) {
      order_.push_back(path);
      it->second.name = std::string(name);
      it->second.depth = depth;
    }
    return it->second;
  }
  static std::string join(const std::string& prefix, std::string_view name) {
    return prefix.empty() ? std::string(name) : prefix + " > " + std::string(name);
  }
  void merge_pair(uint32_t ea, uint32_t eb, const std::string& prefix, size_t depth) {
    const std::string path = join(prefix, runs_[0]->name(ea));
    PathRow& r = row(path, runs_[0]->name(ea), depth);
    ++r.count[0];
    ++r.count[1];
    ++r.matched;
    r.gpu_us[0] += runs_[0]->gpu_us(ea);
    r.gpu_us[1] += runs_[1]->gpu_us(eb);
    merge_lists(runs_[0]->op_children(ea), runs_[1]->op_children(eb), path, depth + 1);
  }
  void one_side(int side, uint32_t e, const std::string& prefix, size_t depth) {
    const std::string path = join(prefix, runs_[side]->name(e));
    PathRow& r = row(path, runs_[side]->name(e), depth);
    ++r.count[side];
    r.gpu_us[side] += runs_[side]->gpu_us(e);
    for (uint32_t c : runs_[side]->op_children(e)) one_side(side, c, path, depth + 1);
  }

  RunTree* runs_[2];
  std::unordered_map<std::string, PathRow> paths_;
  std::vector<std::string> order_;
};

const char* status_of(const PathRow& r) {
  if (r.count[0] == 0) return "added";
  if (r.count[1] == 0) return "removed";
  const double d = r.gpu_us[1] - r.gpu_us[0];
  return d > 0 ? "slower" : d < 0 ? "faster" : "unchanged";
}

}  // namespace

Table op_tree_diff_table(const TraceView& baseline, const TraceView& variant, const CompareTags& tags) {
  std::unordered_map<std::string_view, uint32_t> ids;
  RunTree a(baseline, ids), b(variant, ids);
  double base_total = 0;
  for (uint32_t r : a.roots()) base_total += a.gpu_us(r);
  TreeMerger merger(a, b);
  merger.merge_lists(a.roots(), b.roots(), "", 0);
  auto rows = std::move(merger).rows();
  std::stable_sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
    return std::fabs(x.second.gpu_us[1] - x.second.gpu_us[0]) > std::fabs(y.second.gpu_us[1] - y.second.gpu_us[0]);
  });

  Table t("op_tree_diff", TableKind::kComparison);
  Column& path = t.add_column("path", ColumnType::kString);
  Column& name = t.add_column("name", ColumnType::kString);
  Column& depth = t.add_column("depth", ColumnType::kInt);
  Column& status = t.add_column("status", ColumnType::kString);
  Column& diff = t.add_column("gpu_time_us__" + tags.variant + "_diff", ColumnType::kFloat, Unit::kMicroseconds);
  Column& pct = t.add_column("gpu_time_us__" + tags.variant + "_pct", ColumnType::kFloat, Unit::kPercent);
  Column& share = t.add_column("share_of_total_pct", ColumnType::kFloat, Unit::kPercent);
  Column* count[2] = {&t.add_column(tags.baseline + "::count", ColumnType::kInt),
                      &t.add_column(tags.variant + "::count", ColumnType::kInt)};
  Column* gpu[2] = {&t.add_column(tags.baseline + "::gpu_time_us", ColumnType::kFloat, Unit::kMicroseconds),
                    &t.add_column(tags.variant + "::gpu_time_us", ColumnType::kFloat, Unit::kMicroseconds)};
  for (const auto& [p, r] : rows) {
    path.push_string(p);
    name.push_string(r.name);
    depth.push_int(static_cast<int64_t>(r.depth));
    status.push_string(status_of(r));
    const double d = r.gpu_us[1] - r.gpu_us[0];
    diff.push_float(d);
    if (r.gpu_us[0] != 0) pct.push_float(100 * (d / r.gpu_us[0]));
    else pct.push_null();
    if (base_total != 0) share.push_float(100 * (d / base_total));
    else share.push_null();
    for (int s = 0; s < 2; ++s) {
      count[s]->push_int(static_cast<int64_t>(r.count[s]));
      if (r.count[s]) gpu[s]->push_float(r.gpu_us[s]);
      else gpu[s]->push_null();
    }
  }
  return t;
}

}  // namespace sollens
