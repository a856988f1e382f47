#include <cmath>
#include <cstdio>

#include "analyses/cycles/cycles.h"

namespace sollens {

namespace {

void push_opt(Column& c, double v) {
  if (std::isfinite(v)) c.push_float(v);
  else c.push_null();
}

struct Spans {
  double avg_span = NAN, avg_idle = NAN, avg_period = NAN, min_span = NAN, max_span = NAN;
};

Spans spans_of(const KernelSequence& seq, const Cycle& c) {
  const auto reps = repetition_statistics(seq, c);
  Spans s;
  if (reps.empty()) return s;
  double span = 0, idle = 0, period = 0;
  size_t periods = 0;
  s.min_span = s.max_span = reps[0].span_us;
  for (const auto& r : reps) {
    span += r.span_us;
    idle += r.idle_us;
    s.min_span = std::min(s.min_span, r.span_us);
    s.max_span = std::max(s.max_span, r.span_us);
    if (r.to_next_us) period += *r.to_next_us, ++periods;
  }
  s.avg_span = span / static_cast<double>(reps.size());
  s.avg_idle = idle / static_cast<double>(reps.size());
  if (periods) s.avg_period = period / static_cast<double>(periods);
  return s;
}

// Which positions of the first outer repetition lie in a layer window.
std::vector<uint8_t> inside_layers(const CyclePattern& p) {
  std::vector<uint8_t> inside(p.outer.length, 0);
  if (!p.layer) return inside;
  const uint32_t o = p.outer.start;
  for (uint32_t s : p.layer->starts) {
    if (s < o || s >= o + p.outer.length) continue;
    for (uint32_t j = 0; j < p.layer->length && s - o + j < p.outer.length; ++j) inside[s - o + j] = 1;
  }
  return inside;
}

}  // namespace

Table cycles_table(const CycleReport& report) {
  Table t("cycles", TableKind::kCycles);
  auto& pattern = t.add_column("pattern", ColumnType::kInt);
  auto& level = t.add_column("level", ColumnType::kString);
  auto& sequence = t.add_column("sequence", ColumnType::kString);
  auto& phase = t.add_column("phase", ColumnType::kString);
  auto& start_index = t.add_column("start_index", ColumnType::kInt);
  auto& end_index = t.add_column("end_index", ColumnType::kInt);
  auto& center_pct = t.add_column("center_pct", ColumnType::kFloat, Unit::kPercent);
  auto& length = t.add_column("length", ColumnType::kInt);
  auto& reps = t.add_column("repetitions", ColumnType::kInt);
  auto& per_outer = t.add_column("layers_per_outer", ColumnType::kInt);
  auto& outside = t.add_column("kernels_outside_layers", ColumnType::kInt);
  auto& start_us = t.add_column("start_us", ColumnType::kFloat, Unit::kTimestamp);
  auto& end_us = t.add_column("end_us", ColumnType::kFloat, Unit::kTimestamp);
  auto& avg_span = t.add_column("avg_span_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& avg_idle = t.add_column("avg_idle_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& avg_period = t.add_column("avg_period_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& avg_kernel = t.add_column("avg_cycle_kernel_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& total_kernel = t.add_column("total_kernel_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& anchor = t.add_column("anchor", ColumnType::kString);
  auto& signature = t.add_column("signature", ColumnType::kString);
  Column* found_by = report.structure ? &t.add_column("found_by", ColumnType::kString) : nullptr;
  Column* confidence = report.structure ? &t.add_column("confidence", ColumnType::kString) : nullptr;
  Column* passes = report.structure ? &t.add_column("passes", ColumnType::kInt) : nullptr;
  int64_t k = 0;
  for (const auto& sc : report.sequences) {
    const KernelSequence& seq = sc.sequence;
    for (const auto& p : sc.patterns) {
      ++k;
      for (int is_layer = 0; is_layer < 2; ++is_layer) {
        if (is_layer && !p.layer) break;
        const Cycle& c = is_layer ? *p.layer : p.outer;
        const CycleStatistics st = position_statistics(seq, c);
        const Spans sp = spans_of(seq, c);
        pattern.push_int(k);
        level.push_string(is_layer ? "layer" : "outer");
        sequence.push_string(seq.label);
        phase.push_string(cycle_phase_name(p.phase));
        start_index.push_int(c.start);
        end_index.push_int(c.end());
        center_pct.push_float(c.center() / static_cast<double>(seq.size()) * 100.0);
        length.push_int(c.length);
        reps.push_int(static_cast<int64_t>(c.repetitions()));
        if (p.layer) {
          per_outer.push_int(p.layers_per_outer);
          outside.push_int(p.outer.length - static_cast<int64_t>(p.layers_per_outer) * p.layer->length);
        } else {
          per_outer.push_null();
          outside.push_null();
        }
        start_us.push_float(seq.ts[c.start]);
        double end = -INFINITY;
        const uint32_t last = c.starts.back();
        for (uint32_t j = 0; j < c.length; ++j) end = std::max(end, seq.ts[last + j] + seq.dur[last + j]);
        end_us.push_float(end);
        push_opt(avg_span, sp.avg_span);
        push_opt(avg_idle, sp.avg_idle);
        push_opt(avg_period, sp.avg_period);
        avg_kernel.push_float(st.avg_cycle_us);
        total_kernel.push_float(st.total_us);
        anchor.push_string(seq.names[p.anchor]);
        signature.push_string(cycle_signature(seq, c));
        if (report.structure) {
          found_by->push_string(p.found_by());
          confidence->push_string(confidence_name(p.confidence));
          if (p.layer) passes->push_int(p.passes);
          else passes->push_null();
        }
      }
    }
  }
  return t;
}

Table cycle_positions_table(const CycleStatistics& stats, const std::string& name) {
  Table t(name, TableKind::kCycles);
  auto& index = t.add_column("index", ColumnType::kInt);
  auto& kernel = t.add_column("kernel_name", ColumnType::kString);
  auto& avg = t.add_column("avg_duration_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& min = t.add_column("min_duration_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& max = t.add_column("max_duration_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& sd = t.add_column("stddev_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& count = t.add_column("count", ColumnType::kInt);
  auto& pct = t.add_column("pct_of_cycle", ColumnType::kFloat, Unit::kPercent);
  for (const auto& p : stats.positions) {
    index.push_int(p.index);
    kernel.push_string(p.kernel_name);
    avg.push_float(p.avg_us);
    min.push_float(p.min_us);
    max.push_float(p.max_us);
    sd.push_float(p.stddev_us);
    count.push_int(static_cast<int64_t>(p.count));
    push_opt(pct, p.pct_of_cycle);
  }
  return t;
}

std::string cycle_positions_preamble(const CycleStatistics& stats) {
  char buf[256];
  std::snprintf(buf, sizeof buf,
                "# Cycle Statistics\n# Iterations,%zu\n# Kernels per cycle,%u\n"
                "# Avg cycle time (us),%.3f\n# Total time (us),%.3f\n\n",
                stats.iterations, stats.kernels_per_cycle, stats.avg_cycle_us, stats.total_us);
  return buf;
}

Table cycle_repetitions_table(const std::vector<RepetitionStats>& reps, const std::string& name) {
  Table t(name, TableKind::kCycles);
  auto& index = t.add_column("repetition", ColumnType::kInt);
  auto& first = t.add_column("first_kernel_index", ColumnType::kInt);
  auto& start = t.add_column("start_us", ColumnType::kFloat, Unit::kTimestamp);
  auto& end = t.add_column("end_us", ColumnType::kFloat, Unit::kTimestamp);
  auto& span = t.add_column("span_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& busy = t.add_column("busy_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& idle = t.add_column("idle_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& kernel = t.add_column("kernel_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& next = t.add_column("to_next_start_us", ColumnType::kFloat, Unit::kMicroseconds);
  for (const auto& r : reps) {
    index.push_int(r.index);
    first.push_int(r.first_kernel);
    start.push_float(r.start_us);
    end.push_float(r.end_us);
    span.push_float(r.span_us);
    busy.push_float(r.busy_us);
    idle.push_float(r.idle_us);
    kernel.push_float(r.kernel_time_us);
    if (r.to_next_us) next.push_float(*r.to_next_us);
    else next.push_null();
  }
  return t;
}

Table outside_layers_table(const KernelSequence& seq, const CyclePattern& p, const std::string& name) {
  Table t(name, TableKind::kCycles);
  auto& index = t.add_column("index", ColumnType::kInt);
  auto& kernel = t.add_column("kernel_name", ColumnType::kString);
  auto& where = t.add_column("where", ColumnType::kString);
  auto& avg = t.add_column("avg_duration_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& count = t.add_column("count", ColumnType::kInt);
  auto& pct = t.add_column("pct_of_outer", ColumnType::kFloat, Unit::kPercent);
  if (!p.layer) return t;
  const CycleStatistics st = position_statistics(seq, p.outer);
  const std::vector<uint8_t> inside = inside_layers(p);
  const uint32_t first = p.layer_offset;
  uint32_t last = first;  // one past the last layer kernel
  for (uint32_t j = 0; j < inside.size(); ++j)
    if (inside[j]) last = j + 1;
  for (const auto& pos : st.positions) {
    if (inside[pos.index]) continue;
    index.push_int(pos.index);
    kernel.push_string(pos.kernel_name);
    where.push_string(pos.index < first ? "before_layers"
                      : pos.index < last ? "between_layers"
                                         : "after_layers");
    avg.push_float(pos.avg_us);
    count.push_int(static_cast<int64_t>(pos.count));
    push_opt(pct, pos.pct_of_cycle);
  }
  return t;
}

Table cycles_llm_table(const CycleReport& report) {
  Table t("cycles_llm", TableKind::kCycles);
  auto& sequence = t.add_column("sequence", ColumnType::kString);
  auto& phase = t.add_column("phase", ColumnType::kString);
  auto& pattern = t.add_column("pattern", ColumnType::kInt);
  auto& steps = t.add_column("steps", ColumnType::kInt);
  auto& kernels = t.add_column("kernels_per_step", ColumnType::kInt);
  auto& layers = t.add_column("layers_per_step", ColumnType::kInt);
  auto& layer_len = t.add_column("kernels_per_layer", ColumnType::kInt);
  auto& outside = t.add_column("kernels_outside_layers", ColumnType::kInt);
  auto& avg_step = t.add_column("avg_step_latency_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& min_step = t.add_column("min_step_latency_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& max_step = t.add_column("max_step_latency_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& period = t.add_column("avg_step_period_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& idle = t.add_column("avg_step_idle_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& layer_span = t.add_column("avg_layer_latency_us", ColumnType::kFloat, Unit::kMicroseconds);
  auto& outside_time = t.add_column("avg_outside_layers_kernel_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column* found_by = report.structure ? &t.add_column("found_by", ColumnType::kString) : nullptr;
  Column* confidence = report.structure ? &t.add_column("confidence", ColumnType::kString) : nullptr;
  Column* passes = report.structure ? &t.add_column("passes", ColumnType::kInt) : nullptr;
  int64_t k = 0;
  for (const auto& sc : report.sequences) {
    const KernelSequence& seq = sc.sequence;
    for (const auto& p : sc.patterns) {
      ++k;
      if (p.phase == CyclePhase::kOther) continue;
      const Spans sp = spans_of(seq, p.outer);
      sequence.push_string(seq.label);
      phase.push_string(cycle_phase_name(p.phase));
      pattern.push_int(k);
      steps.push_int(static_cast<int64_t>(p.outer.repetitions()));
      kernels.push_int(p.outer.length);
      push_opt(avg_step, sp.avg_span);
      push_opt(min_step, sp.min_span);
      push_opt(max_step, sp.max_span);
      push_opt(period, sp.avg_period);
      push_opt(idle, sp.avg_idle);
      if (report.structure) {
        found_by->push_string(p.found_by());
        confidence->push_string(confidence_name(p.confidence));
        if (p.layer) passes->push_int(p.passes);
        else passes->push_null();
      }
      if (p.layer) {
        layers.push_int(p.layers_per_outer);
        layer_len.push_int(p.layer->length);
        outside.push_int(p.outer.length - static_cast<int64_t>(p.layers_per_outer) * p.layer->length);
        push_opt(layer_span, spans_of(seq, *p.layer).avg_span);
        const CycleStatistics st = position_statistics(seq, p.outer);
        const std::vector<uint8_t> inside = inside_layers(p);
        double out_us = 0;
        for (const auto& pos : st.positions)
          if (!inside[pos.index]) out_us += pos.avg_us;
        outside_time.push_float(out_us);
      } else {
        layers.push_null();
        layer_len.push_null();
        outside.push_null();
        layer_span.push_null();
        outside_time.push_null();
      }
    }
  }
  return t;
}

}  // namespace sollens
