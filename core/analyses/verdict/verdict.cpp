#include "analyses/verdict/verdict.h"

#include <cmath>
#include <limits>
#include <vector>

#include "analyses/sol/sol.h"
#include "analyses/timeline/gpu_timeline.h"
#include "analyses/verdict/bound_by.h"
#include "analyses/verdict/verdict_format.h"
#include "analyses/verdict/verdict_lists.h"
#include "analyses/verdict/verdict_rows.h"
#include "analyses/verdict/verdict_steps.h"
#include "base/nan.h"

namespace sollens::verdict {

namespace {


double pct(double part, double whole) { return whole > 0 ? 100 * part / whole : kNaN; }

BoundFacts bound_facts(const VerdictInputs& in, bool estimates) {
  BoundFacts f;
  // The GPU timeline, as the overview shows it; where it is empty (no kernel has a launch
  // in the trace, and the timeline counts linked kernels only) every GPU event's wall.
  const bool timeline = in.timeline->total_us > 0;
  f.wall_us = timeline ? in.timeline->total_us : in.wall->wall_us;
  f.busy_us = timeline ? in.timeline->busy_us : in.wall->busy_us;
  f.idle_us = f.wall_us - f.busy_us;
  f.host_wait_us = in.wall->idle_host_wait_us;
  f.kernel_wait_us = in.wall->idle_kernel_wait_us;
  f.other_wait_us = in.wall->idle_other_us;
  f.exposed_comm_us = in.timeline->exposed_comm_us;
  if (!estimates) return f;
  for (const SolOp& op : in.sol->ops.ops) {
    if (!op.estimated || op.communication) continue;
    if (op.roofline.bound == SolBound::kCompute) f.sol_compute_us += op.roofline.estimate_us;
    else if (op.roofline.bound == SolBound::kMemory) f.sol_memory_us += op.roofline.estimate_us;
  }
  return f;
}

// "launch-bound: 94 % idle", "memory-bound: GPU busy 88 %, 80 % of SOL in bytes", ...
std::string bound_phrase(const BoundVerdict& b, const BoundFacts& f) {
  const std::string name(bound_name(b.bound));
  const std::string busy = "GPU busy " + fmt_pct(pct(f.busy_us, f.wall_us)) + " %";
  switch (b.bound) {
    case Bound::kNoGpuWork: return "no GPU work in the trace";
    case Bound::kLaunch:
    case Bound::kSync: return name + ": " + fmt_pct(b.share_pct) + " % idle";
    case Bound::kCommunication: return name + ": " + fmt_pct(b.share_pct) + " % of GPU busy time is exposed communication";
    case Bound::kCompute: return name + ": " + busy + ", " + fmt_pct(b.share_pct) + " % of SOL in FLOPs";
    case Bound::kMemory: return name + ": " + busy + ", " + fmt_pct(b.share_pct) + " % of SOL in bytes";
    case Bound::kKernel: return name + ": " + busy;
  }
  return name;
}

std::string phase_step_words(const PhaseSteps& p) {
  return p.phase == "step" ? "step" : p.phase + " step";
}

// "each decode step 17.1 ms wall, 0.518 ms of SOL" (the main step; GPU work without estimates).
std::string main_step_phrase(const std::vector<PhaseSteps>& phases, bool estimates) {
  for (const PhaseSteps& p : phases) {
    if (!p.main) continue;
    // No estimate in the step (its ops unmodeled, or graph replays not mapped to ops): its GPU work.
    const bool sol = estimates && p.sol_us > 0;
    const std::string work = sol ? fmt_num(p.sol_us / 1e3) + " ms of SOL" : fmt_num(p.busy_us / 1e3) + " ms of GPU work";
    return (p.steps == 1 ? "the " : "each ") + phase_step_words(p) + " " + fmt_num(p.wall_us / 1e3) + " ms wall, " + work;
  }
  return "";
}

std::string headline(const BoundVerdict& b, const BoundFacts& f, const std::vector<PhaseSteps>& phases,
                     bool estimates, bool steps_known) {
  std::string text = bound_phrase(b, f);
  if (b.bound == Bound::kNoGpuWork) return text;
  if (!steps_known) return text;
  const std::string steps = steps_phrase(phases);
  text += "; " + (steps.empty() ? std::string("no repeating steps found") : steps);
  const std::string each = main_step_phrase(phases, estimates);
  if (!each.empty()) text += "; " + each;
  return text;
}

std::string ms_words(double us) { return fmt_num(us / 1e3) + " ms"; }

void add_wall_rows(VerdictRows& rows, const BoundFacts& f) {
  if (!(f.wall_us > 0)) return;  // no GPU time: shares of it would be 0 / 0 (the headline says so)
  rows.add("wall_ms", f.wall_us / 1e3, "ms", "the GPU timeline spans " + ms_words(f.wall_us));
  rows.add("gpu_busy_ms", f.busy_us / 1e3, "ms",
           "the GPU is busy " + ms_words(f.busy_us) + " (" + fmt_pct(pct(f.busy_us, f.wall_us)) + " %)");
  rows.add("gpu_idle_pct", pct(f.idle_us, f.wall_us), "%",
           "the GPU is idle " + fmt_pct(pct(f.idle_us, f.wall_us)) + " % of the wall (" + ms_words(f.idle_us) + ")",
           "launch-delays");
  rows.add("idle_host_wait_ms", f.host_wait_us / 1e3, "ms",
           "host wait " + ms_words(f.host_wait_us) + ": the GPU idle before a kernel whose launch had not started",
           "launch-delays");
  rows.add("idle_kernel_wait_ms", f.kernel_wait_us / 1e3, "ms",
           "kernel wait " + ms_words(f.kernel_wait_us) + ": gaps under 30 µs between queued kernels (launch overhead)",
           "launch-delays");
  rows.add("idle_other_ms", f.other_wait_us / 1e3, "ms",
           "other idle " + ms_words(f.other_wait_us) + ": longer gaps with the kernel queued (syncs, events, other streams)",
           "critical-path");
  if (f.exposed_comm_us > 0)
    rows.add("exposed_comm_ms", f.exposed_comm_us / 1e3, "ms",
             "communication not hidden by compute: " + ms_words(f.exposed_comm_us), "collectives");
}

void add_step_rows(VerdictRows& rows, const std::vector<PhaseSteps>& phases, bool estimates) {
  const bool llm = !phases.empty() && phases.front().phase != "step";
  const char* view = llm ? "llm" : "cycles";
  for (const PhaseSteps& p : phases) {
    const std::string s = "." + p.phase;
    const std::string what = phase_step_words(p);
    rows.add("steps" + s, static_cast<double>(p.steps), "count",
             std::to_string(p.steps) + " " + what + (p.steps == 1 ? "" : "s"), view);
    rows.add("step_wall_ms" + s, p.wall_us / 1e3, "ms",
             p.period ? "each " + what + " takes " + ms_words(p.wall_us) +
                          " of wall time (first kernel to the next step's first kernel, idle included)"
                    : "each " + what + " spans " + ms_words(p.wall_us) + " (its first kernel to its last)",
             view);
    rows.add("step_gpu_ms" + s, p.busy_us / 1e3, "ms", "the GPU works " + ms_words(p.busy_us) + " per " + what, view);
    if (!estimates) continue;
    rows.add("step_sol_ms" + s, p.sol_us / 1e3, "ms",
             ms_words(p.sol_us) + " of speed of light per " + what +
                 (p.sol_us > 0 ? "" : " (none of its kernels belongs to an op with an estimate)"),
             "sol");
    rows.add("step_sol_efficiency_pct" + s, pct(p.sol_us, p.wall_us), "%",
             what + " SOL efficiency " + fmt_pct(pct(p.sol_us, p.wall_us)) +
                 " % (speed of light over wall time, idle included)",
             "sol");
  }
}

}  // namespace

Table verdict_table(const VerdictInputs& in) {
  VerdictRows rows;
  const bool estimates = in.sol && !in.device.empty();
  const BoundFacts facts = bound_facts(in, estimates);
  const BoundVerdict b = bound_by(facts);
  const std::vector<PhaseSteps> phases = in.sol ? phase_steps(*in.sol) : std::vector<PhaseSteps>{};
  const std::string view(bound_view(b.bound));
  rows.add("headline", kNaN, "", headline(b, facts, phases, estimates, in.sol != nullptr), view);
  rows.add("bound_by", b.share_pct, "%", std::string(bound_name(b.bound)) + ": " + b.why, view);
  add_wall_rows(rows, facts);
  add_step_rows(rows, phases, estimates);
  if (estimates)
    rows.add("sol_wall_efficiency_pct", in.wall->efficiency_pct(), "%",
             "speed of light is " + fmt_pct(in.wall->efficiency_pct()) + " % of the wall time (idle included) on " +
                 in.device,
             "sol");
  rows.add("device", kNaN, "", in.device.empty() ? "no GPU model: speed of light not estimated (name the GPU to get it)" : in.device);
  if (in.ops_summary) add_top_ops(rows, *in.ops_summary);
  if (in.kernel_summary) add_top_kernels(rows, *in.kernel_summary);
  if (estimates) add_sol_gaps(rows, in.sol->by_function);
  return rows.release();
}

std::string verdict_headline(const Table& verdict) {
  const Column* finding = verdict.find("finding");
  const Column* words = verdict.find("words");
  if (!finding || !words) return "";
  for (size_t r = 0; r < verdict.num_rows(); ++r)
    if (finding->string_at(r) == "headline") return words->string_at(r);
  return "";
}

}  // namespace sollens::verdict
