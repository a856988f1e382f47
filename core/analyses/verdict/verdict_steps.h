#pragma once
// The steps of a trace per phase, as the verdict tells them: from sol_by_step's
// step-level rows (cycle detection) and the SOL wall of the main step (sol_wall.h).
#include <string>
#include <vector>

namespace sollens {

struct SolReport;

namespace verdict {

struct PhaseSteps {
  std::string phase;  // "prefill", "chunked_prefill", "decode", "mixed", or "step" outside LLM inference
  size_t steps = 0;
  // Means per step. The wall is the step's period (first kernel to the next step's first
  // kernel, idle between steps included) for the main step (sol_wall.h) and where
  // sol_by_step has it (wall_us), else its span (first kernel to last).
  double wall_us = 0, busy_us = 0, sol_us = 0;
  bool main = false;
  bool period = false;  // wall_us is the period
};

// LLM phases (each phase's largest step pattern) in the order prefill, chunked_prefill,
// decode, mixed; outside LLM inference the main step alone; none without steps.
std::vector<PhaseSteps> phase_steps(const SolReport& sol);

// "1 prefill + 31 decode steps", "20 steps", "" (none).
std::string steps_phrase(const std::vector<PhaseSteps>& phases);

}  // namespace verdict
}  // namespace sollens
