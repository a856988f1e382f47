// Spans over the time axis: steps, phases and layers (the cycles' patterns), the
// critical paths' segments, the longest launch delays.
#include "analyses/time_axis/time_axis_spans.h"

#include <algorithm>
#include <optional>
#include <string>

#include "analyses/cycles/cycles.h"
#include "analyses/hta/critical_path/critical_path.h"
#include "analyses/sol/sol_steps.h"

namespace sollens::time_axis {
namespace {

class Spans {
 public:
  explicit Spans(double origin)
      : origin_(origin),
        kind_(t.add_column("kind", ColumnType::kString)),
        label_(t.add_column("label", ColumnType::kString)),
        start_(t.add_column("start_us", ColumnType::kFloat, Unit::kMicroseconds)),
        end_(t.add_column("end_us", ColumnType::kFloat, Unit::kMicroseconds)),
        lane_(t.add_column("lane", ColumnType::kInt)),
        value_(t.add_column("value", ColumnType::kFloat)) {}

  // start / end: absolute µs of the trace's clock.
  void add(std::string_view kind, std::string_view label, double start, double end, int64_t lane,
           std::optional<double> value = std::nullopt) {
    kind_.push_string(kind);
    label_.push_string(label);
    start_.push_float(start - origin_);
    end_.push_float(end - origin_);
    lane_.push_int(lane);
    if (value) value_.push_float(*value);
    else value_.push_null();
  }

  Table t{"time_axis_spans", TableKind::kTimeline};

 private:
  double origin_;
  Column &kind_, &label_, &start_, &end_, &lane_, &value_;
};

bool drawn_phase(CyclePhase phase) { return phase != CyclePhase::kOther; }

// Each repetition's SOL latency over its span (sol_steps.h), where SOL ops are given.
std::vector<std::optional<double>> sol_values(const EventStore& s, const SolOps* ops, const KernelSequence& seq,
                                              const Cycle& cycle) {
  std::vector<std::optional<double>> out(cycle.starts.size());
  if (!ops) return out;
  const std::vector<SolSpan> spans = sol_spans(s, *ops, seq, cycle);
  for (size_t i = 0; i < spans.size() && i < out.size(); ++i)
    if (spans[i].span_us > 0) out[i] = spans[i].sol_latency_us / spans[i].span_us;
  return out;
}

// Each drawn pattern's steps (its outer repetitions), its phase once over all of them
// (an LLM phase: prefill, decode, ...), and its layers; steps and layers valued by their
// SOL efficiency where SOL ops are given.
void add_cycles(Spans& out, const EventStore& s, const CycleReport& cycles, const SolOps* ops) {
  for (const SequenceCycles& sc : cycles.sequences) {
    const std::string where = cycles.sequences.size() > 1 ? " (" + sc.sequence.label + ")" : "";
    for (const CyclePattern& p : sc.patterns) {
      if (!drawn_phase(p.phase)) continue;
      const std::vector<RepetitionStats> steps = repetition_statistics(sc.sequence, p.outer);
      if (steps.empty()) continue;
      const std::string phase = cycle_phase_name(p.phase);
      const std::string step_word = p.phase == CyclePhase::kStep ? "step" : phase + " step";
      const std::vector<std::optional<double>> step_sol = sol_values(s, ops, sc.sequence, p.outer);
      for (const RepetitionStats& r : steps)
        out.add("step", step_word + " " + std::to_string(r.index + 1) + where, r.start_us, r.end_us, -1,
                r.index < step_sol.size() ? step_sol[r.index] : std::nullopt);
      if (p.phase != CyclePhase::kStep)
        out.add("phase", phase + " (" + std::to_string(steps.size()) + " steps)" + where, steps.front().start_us,
                steps.back().end_us, -1);
      if (!p.layer) continue;
      const uint32_t per_step = std::max<uint32_t>(1, p.layers_per_outer);
      const std::vector<std::optional<double>> layer_sol = sol_values(s, ops, sc.sequence, *p.layer);
      for (const RepetitionStats& r : repetition_statistics(sc.sequence, *p.layer))
        out.add("layer", "layer " + std::to_string(r.index % per_step + 1) + where, r.start_us, r.end_us, -1,
                r.index < layer_sol.size() ? layer_sol[r.index] : std::nullopt);
    }
  }
}

int64_t lane_of_row(const Placement& placed, int64_t row) {
  if (row < 0 || static_cast<size_t>(row) >= placed.sheet_row_of.size()) return -1;
  const int32_t r = placed.sheet_row_of[static_cast<size_t>(row)];
  return r < 0 ? -1 : placed.events[static_cast<size_t>(r)].lane;
}

// A path's edges with time in them, runs of one lane and one class joined into one span
// (value: its µs).
void add_path(Spans& out, const Placement& placed, const TimeAxisPath& path) {
  struct Run {
    double from = 0, to = 0;
    int64_t lane = -1;
    std::string_view bound;
  };
  std::optional<Run> run;
  auto flush = [&] {
    if (run) out.add("critical_path", std::string(path.label) + ": " + std::string(run->bound), run->from, run->to,
                     run->lane, run->to - run->from);
  };
  for (const hta::CriticalPathStep& step : path.path->steps) {
    if (!(step.to_ts > step.from_ts)) continue;
    const int64_t lane = lane_of_row(placed, step.event);
    const std::string_view bound = hta::bound_by_name(step.bound_by);
    if (run && run->lane == lane && run->bound == bound && step.from_ts <= run->to) {
      run->to = std::max(run->to, step.to_ts);
      continue;
    }
    flush();
    run = Run{step.from_ts, step.to_ts, lane, bound};
  }
  flush();
}

// Launch delays (a GPU event's start − its launch's end, as HTA's launch stats) over
// the cutoff, the longest `max` of them, on the GPU event's lane.
void add_launch_delays(Spans& out, const EventStore& s, const TraceTree& tree, const Placement& placed,
                       const TimeAxisInputs& inputs) {
  struct Delay {
    uint32_t gpu;
    uint32_t launch;
    double us;
  };
  std::vector<Delay> delays;
  for (uint32_t g : tree.gpu_events) {
    const int32_t parent = tree.parent[g];
    if (!tree.in_tree[g] || parent == kNoParent) continue;
    const uint32_t launch = static_cast<uint32_t>(parent);
    if (!is_runtime(s.category[launch])) continue;
    const double delay = s.ts[g] - s.t_end(launch);
    if (delay > inputs.launch_delay_cutoff_us) delays.push_back({g, launch, delay});
  }
  const size_t keep = std::min(delays.size(), inputs.max_launch_delays);
  std::partial_sort(delays.begin(), delays.begin() + static_cast<std::ptrdiff_t>(keep), delays.end(),
                    [](const Delay& a, const Delay& b) { return a.us > b.us || (a.us == b.us && a.gpu < b.gpu); });
  delays.resize(keep);
  std::sort(delays.begin(), delays.end(), [&](const Delay& a, const Delay& b) { return s.ts[a.gpu] < s.ts[b.gpu]; });
  for (const Delay& d : delays)
    out.add("launch_delay", s.name_of(d.gpu), s.t_end(d.launch), s.ts[d.gpu], lane_of_row(placed, d.gpu), d.us);
}

}  // namespace

Table spans_table(const EventStore& store, const TraceTree& tree, const Placement& placed, double origin,
                  const TimeAxisInputs& inputs) {
  Spans out(origin);
  if (inputs.cycles) add_cycles(out, store, *inputs.cycles, inputs.sol_ops);
  for (const TimeAxisPath& path : inputs.critical_paths)
    if (path.path) add_path(out, placed, path);
  add_launch_delays(out, store, tree, placed, inputs);
  return std::move(out.t);
}

}  // namespace sollens::time_axis
