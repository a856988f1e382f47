#include "analyses/cycles/cycle_sheets.h"

namespace sollens {

namespace {

void add_positions(std::vector<CycleSheet>& out, const KernelSequence& seq, const Cycle& cycle,
                   const std::string& name) {
  const CycleStatistics stats = position_statistics(seq, cycle);
  out.push_back({cycle_positions_table(stats, name), cycle_positions_preamble(stats)});
}

void add_repetitions(std::vector<CycleSheet>& out, const KernelSequence& seq, const Cycle& cycle,
                     const std::string& name) {
  out.push_back({cycle_repetitions_table(repetition_statistics(seq, cycle), name), ""});
}

void add_all(std::vector<CycleSheet>& out, const CycleReport& report) {
  out.push_back({cycles_table(report), ""});
  int k = 0;
  for (const auto& sc : report.sequences)
    for (const auto& p : sc.patterns) {
      const std::string base = "cycle_" + std::to_string(++k);
      add_positions(out, sc.sequence, p.effective(), base);
      add_repetitions(out, sc.sequence, p.outer, base + "_repetitions");
      if (!p.layer) continue;
      add_positions(out, sc.sequence, p.outer, base + "_outer");
      add_repetitions(out, sc.sequence, *p.layer, base + "_layer_repetitions");
      out.push_back({outside_layers_table(sc.sequence, p, base + "_outside_layers"), ""});
    }
}

void add_llm(std::vector<CycleSheet>& out, const CycleReport& report) {
  out.push_back({cycles_llm_table(report), ""});
  int seq_with_phases = 0;
  for (size_t s = 0; s < report.sequences.size(); ++s) {
    const auto& sc = report.sequences[s];
    bool any = false;
    for (const auto& p : sc.patterns) {
      if (p.phase == CyclePhase::kOther) continue;
      any = true;
      // The first device with phases gets prefill / decode; others an _s<i> suffix.
      const std::string suffix = seq_with_phases ? "_s" + std::to_string(s) : "";
      const std::string base = cycle_phase_name(p.phase) + suffix;
      add_positions(out, sc.sequence, p.effective(), base);
      add_repetitions(out, sc.sequence, p.outer, base + "_steps");
      if (p.layer)
        out.push_back({outside_layers_table(sc.sequence, p, base + "_outside_layers"), ""});
    }
    seq_with_phases += any;
  }
}

}  // namespace

std::vector<CycleSheet> cycle_sheets(const CycleReport& report, CycleSheetMode mode) {
  std::vector<CycleSheet> out;
  if (mode == CycleSheetMode::kLlm)
    add_llm(out, report);
  else
    add_all(out, report);
  return out;
}

}  // namespace sollens
