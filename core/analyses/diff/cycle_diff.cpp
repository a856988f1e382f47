#include "analyses/diff/cycle_diff.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "analyses/cycles/cycle_stats.h"
#include "analyses/diff/sequence_alignment.h"

namespace sollens {

namespace {

struct PatternRef {
  const KernelSequence* seq;
  const CyclePattern* pattern;
  int64_t number;  // from 1, in report order
  std::string signature;
};

std::vector<PatternRef> patterns_of(const CycleReport& report) {
  std::vector<PatternRef> out;
  for (const SequenceCycles& s : report.sequences)
    for (const CyclePattern& p : s.patterns)
      out.push_back({&s.sequence, &p, static_cast<int64_t>(out.size() + 1),
                     cycle_signature(s.sequence, p.effective())});
  return out;
}

// Baseline pattern index → variant pattern index (or none).
std::vector<std::optional<size_t>> pair_patterns(const std::vector<PatternRef>& a, const std::vector<PatternRef>& b) {
  std::vector<std::optional<size_t>> pair(a.size());
  std::vector<bool> taken(b.size(), false);
  const auto pass = [&](auto same) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (pair[i]) continue;
      for (size_t j = 0; j < b.size(); ++j)
        if (!taken[j] && same(a[i], b[j])) {
          pair[i] = j;
          taken[j] = true;
          break;
        }
    }
  };
  pass([](const PatternRef& x, const PatternRef& y) { return x.signature == y.signature; });
  pass([](const PatternRef& x, const PatternRef& y) { return x.pattern->phase == y.pattern->phase; });
  return pair;
}

struct LevelFigures {
  int64_t repetitions = 0;
  int64_t kernels = 0;
  double latency_us = 0;
  double kernel_time_us = 0;
};

LevelFigures figures(const KernelSequence& seq, const Cycle& cycle) {
  LevelFigures f;
  const std::vector<RepetitionStats> reps = repetition_statistics(seq, cycle);
  f.repetitions = static_cast<int64_t>(reps.size());
  f.kernels = cycle.length;
  double span = 0, busy = 0;
  for (const RepetitionStats& r : reps) {
    span += r.span_us;
    busy += r.kernel_time_us;
  }
  if (!reps.empty()) {
    f.latency_us = span / static_cast<double>(reps.size());
    f.kernel_time_us = busy / static_cast<double>(reps.size());
  }
  return f;
}

void push_optional(Column& c, std::optional<double> v) {
  if (v) c.push_float(*v);
  else c.push_null();
}

void push_change(Column& diff, Column& pct, std::optional<double> a, std::optional<double> b) {
  if (!a || !b) {
    diff.push_null();
    pct.push_null();
    return;
  }
  diff.push_float(*b - *a);
  push_optional(pct, *a != 0 ? std::optional<double>(100 * ((*b - *a) / *a)) : std::nullopt);
}

class CycleTableWriter {
 public:
  CycleTableWriter(Table& t, const CompareTags& tags) {
    pattern_ = &t.add_column("pattern", ColumnType::kInt);
    phase_ = &t.add_column("phase", ColumnType::kString);
    level_ = &t.add_column("level", ColumnType::kString);
    lat_diff_ = &t.add_column("latency_us__" + tags.variant + "_diff", ColumnType::kFloat, Unit::kMicroseconds);
    lat_pct_ = &t.add_column("latency_us__" + tags.variant + "_pct", ColumnType::kFloat, Unit::kPercent);
    kt_diff_ = &t.add_column("kernel_time_us__" + tags.variant + "_diff", ColumnType::kFloat, Unit::kMicroseconds);
    kt_pct_ = &t.add_column("kernel_time_us__" + tags.variant + "_pct", ColumnType::kFloat, Unit::kPercent);
    for (int s = 0; s < 2; ++s) {
      const std::string& tag = s ? tags.variant : tags.baseline;
      run_[s].pattern = &t.add_column(tag + "::pattern", ColumnType::kInt);
      run_[s].repetitions = &t.add_column(tag + "::repetitions", ColumnType::kInt);
      run_[s].kernels = &t.add_column(tag + "::kernels", ColumnType::kInt);
      run_[s].latency = &t.add_column(tag + "::latency_us", ColumnType::kFloat, Unit::kMicroseconds);
      run_[s].kernel_time = &t.add_column(tag + "::kernel_time_us", ColumnType::kFloat, Unit::kMicroseconds);
    }
  }
  void row(const PatternRef* a, const PatternRef* b, const char* level) {
    const PatternRef* any = a ? a : b;
    pattern_->push_int(any->number);
    phase_->push_string(cycle_phase_name(any->pattern->phase));
    level_->push_string(level);
    std::optional<LevelFigures> f[2];
    const PatternRef* refs[2] = {a, b};
    for (int s = 0; s < 2; ++s) {
      const PatternRef* r = refs[s];
      const bool layer = std::string_view(level) == "layer";
      if (r && (!layer || r->pattern->layer))
        f[s] = figures(*r->seq, layer ? *r->pattern->layer : r->pattern->outer);
    }
    const auto lat = [&](int s) { return f[s] ? std::optional<double>(f[s]->latency_us) : std::nullopt; };
    const auto kt = [&](int s) { return f[s] ? std::optional<double>(f[s]->kernel_time_us) : std::nullopt; };
    push_change(*lat_diff_, *lat_pct_, lat(0), lat(1));
    push_change(*kt_diff_, *kt_pct_, kt(0), kt(1));
    for (int s = 0; s < 2; ++s) {
      if (!f[s]) {
        for (Column* c : {run_[s].pattern, run_[s].repetitions, run_[s].kernels, run_[s].latency, run_[s].kernel_time})
          c->push_null();
        continue;
      }
      run_[s].pattern->push_int(refs[s]->number);
      run_[s].repetitions->push_int(f[s]->repetitions);
      run_[s].kernels->push_int(f[s]->kernels);
      run_[s].latency->push_float(f[s]->latency_us);
      run_[s].kernel_time->push_float(f[s]->kernel_time_us);
    }
  }

 private:
  struct RunColumns {
    Column *pattern, *repetitions, *kernels, *latency, *kernel_time;
  };
  Column *pattern_, *phase_, *level_, *lat_diff_, *lat_pct_, *kt_diff_, *kt_pct_;
  RunColumns run_[2];
};

std::vector<uint32_t> signature_ids(const PatternRef& p, std::unordered_map<std::string, uint32_t>& ids) {
  const Cycle& c = p.pattern->effective();
  std::vector<uint32_t> out;
  for (uint32_t k = 0; k < c.length; ++k) {
    const std::string& sig = p.seq->signatures[p.seq->sig[c.start + k]];
    out.push_back(ids.try_emplace(sig, static_cast<uint32_t>(ids.size())).first->second);
  }
  return out;
}

std::vector<AlignStep> align_positions(const PatternRef& a, const PatternRef& b) {
  std::unordered_map<std::string, uint32_t> ids;
  const std::vector<uint32_t> x = signature_ids(a, ids), y = signature_ids(b, ids);
  std::vector<AlignStep> steps = align_sequences(x, y);
  const bool shared = std::any_of(steps.begin(), steps.end(), [](const AlignStep& s) { return s.op == AlignOp::kMatch; });
  if (!shared && x.size() == y.size()) {
    steps.clear();
    for (size_t i = 0; i < x.size(); ++i)
      steps.push_back({AlignOp::kMatch, static_cast<int64_t>(i), static_cast<int64_t>(i)});
  }
  return steps;
}

void position_rows(const PatternRef& a, const PatternRef& b, Table& t, const CompareTags& tags) {
  if (t.num_columns() == 0) {
    t.add_column("pattern", ColumnType::kInt);
    t.add_column("position", ColumnType::kInt);
    t.add_column("signature", ColumnType::kString);
    t.add_column("avg_us__" + tags.variant + "_diff", ColumnType::kFloat, Unit::kMicroseconds);
    t.add_column("avg_us__" + tags.variant + "_pct", ColumnType::kFloat, Unit::kPercent);
    t.add_column(tags.baseline + "::kernel_name", ColumnType::kString);
    t.add_column(tags.baseline + "::avg_us", ColumnType::kFloat, Unit::kMicroseconds);
    t.add_column(tags.variant + "::kernel_name", ColumnType::kString);
    t.add_column(tags.variant + "::avg_us", ColumnType::kFloat, Unit::kMicroseconds);
  }
  const CycleStatistics sa = position_statistics(*a.seq, a.pattern->effective());
  const CycleStatistics sb = position_statistics(*b.seq, b.pattern->effective());
  int64_t position = 0;
  for (const AlignStep& s : align_positions(a, b)) {
    const PositionStats* pa = s.a >= 0 ? &sa.positions[static_cast<size_t>(s.a)] : nullptr;
    const PositionStats* pb = s.b >= 0 ? &sb.positions[static_cast<size_t>(s.b)] : nullptr;
    const PatternRef& any = pa ? a : b;
    const Cycle& cycle = any.pattern->effective();
    const uint32_t k = cycle.start + static_cast<uint32_t>(pa ? s.a : s.b);
    t.column(0).push_int(a.number);
    t.column(1).push_int(position++);
    t.column(2).push_string(any.seq->signatures[any.seq->sig[k]]);
    const auto avg = [](const PositionStats* p) { return p ? std::optional<double>(p->avg_us) : std::nullopt; };
    push_change(t.column(3), t.column(4), avg(pa), avg(pb));
    const PositionStats* ps[2] = {pa, pb};
    for (int side = 0; side < 2; ++side) {
      if (ps[side]) t.column(5 + 2 * side).push_string(ps[side]->kernel_name);
      else t.column(5 + 2 * side).push_null();
      push_optional(t.column(6 + 2 * side), avg(ps[side]));
    }
  }
}

}  // namespace

CycleDiff diff_cycles(const CycleReport& baseline, const CycleReport& variant, const CompareTags& tags) {
  CycleDiff out;
  const std::vector<PatternRef> a = patterns_of(baseline), b = patterns_of(variant);
  const std::vector<std::optional<size_t>> pairs = pair_patterns(a, b);
  CycleTableWriter writer(out.cycles, tags);
  std::vector<bool> paired(b.size(), false);
  for (size_t i = 0; i < a.size(); ++i) {
    const PatternRef* other = pairs[i] ? &b[*pairs[i]] : nullptr;
    if (other) paired[*pairs[i]] = true;
    writer.row(&a[i], other, "step");
    if (a[i].pattern->layer || (other && other->pattern->layer)) writer.row(&a[i], other, "layer");
    if (other) position_rows(a[i], *other, out.positions, tags);
  }
  for (size_t j = 0; j < b.size(); ++j)
    if (!paired[j]) {
      writer.row(nullptr, &b[j], "step");
      if (b[j].pattern->layer) writer.row(nullptr, &b[j], "layer");
    }
  return out;
}

}  // namespace sollens
