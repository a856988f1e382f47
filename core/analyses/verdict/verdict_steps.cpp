#include "analyses/verdict/verdict_steps.h"

#include <array>
#include <string_view>

#include "analyses/sol/sol.h"

namespace sollens::verdict {

namespace {

struct StepRow {
  std::string phase;
  size_t steps = 0, kernels = 0;
  double wall_us = 0, busy_us = 0, sol_us = 0;
  bool period = false;  // wall_us is the step's period (sol_by_step's wall_us), else its span
};

double number(const Column* c, size_t r) {
  if (!c || c->is_null(r)) return 0;
  return c->type() == ColumnType::kFloat ? c->float_at(r) : static_cast<double>(c->int_at(r));
}

std::vector<StepRow> step_rows(const Table& by_step) {
  const Column* level = by_step.find("level");
  const Column* phase = by_step.find("llm_phase");
  std::vector<StepRow> rows;
  if (!level) return rows;
  for (size_t r = 0; r < by_step.num_rows(); ++r) {
    if (level->string_at(r) != "step") continue;
    StepRow row;
    row.phase = phase && !phase->is_null(r) ? phase->string_at(r) : "";
    row.steps = static_cast<size_t>(number(by_step.find("repetitions"), r));
    row.kernels = static_cast<size_t>(number(by_step.find("kernels"), r));
    const Column* wall = by_step.find("wall_us");
    row.period = wall && !wall->is_null(r);
    row.wall_us = number(row.period ? wall : by_step.find("measured_span_us"), r);
    row.busy_us = number(by_step.find("busy_us"), r);
    row.sol_us = number(by_step.find("sol_latency_us"), r);
    rows.push_back(row);
  }
  return rows;
}

// The row covering the most kernels among those of `phase` ("*": any), or null.
const StepRow* largest(const std::vector<StepRow>& rows, std::string_view phase) {
  const StepRow* best = nullptr;
  for (const StepRow& r : rows)
    if ((phase == "*" || r.phase == phase) && (!best || r.steps * r.kernels > best->steps * best->kernels))
      best = &r;
  return best;
}

PhaseSteps from_row(const StepRow& row, std::string phase, const StepRow* main, const SolReport& sol) {
  PhaseSteps p{std::move(phase), row.steps, row.wall_us, row.busy_us, row.sol_us, &row == main, row.period};
  if (p.main && sol.step_wall) {
    p.period = true;
    p.wall_us = sol.step_wall->wall_us;
    p.busy_us = sol.step_wall->busy_us;
    p.sol_us = sol.step_wall->sol_us;
  }
  return p;
}

}  // namespace

std::vector<PhaseSteps> phase_steps(const SolReport& sol) {
  const std::vector<StepRow> rows = step_rows(sol.by_step);
  const StepRow* main = largest(rows, "*");
  std::vector<PhaseSteps> out;
  if (!main) return out;
  constexpr std::array<std::string_view, 4> kPhases = {"prefill", "chunked_prefill", "decode", "mixed"};
  for (std::string_view phase : kPhases)
    if (const StepRow* r = largest(rows, phase)) out.push_back(from_row(*r, std::string(phase), main, sol));
  if (out.empty()) out.push_back(from_row(*main, "step", main, sol));
  return out;
}

std::string steps_phrase(const std::vector<PhaseSteps>& phases) {
  std::string text;
  for (const PhaseSteps& p : phases) {
    if (!text.empty()) text += " + ";
    text += std::to_string(p.steps);
    if (p.phase != "step") text += " " + p.phase;
  }
  if (text.empty()) return "";
  const bool one = phases.size() == 1 && phases.front().steps == 1;
  return text + (one ? " step" : " steps");
}

}  // namespace sollens::verdict
