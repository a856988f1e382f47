#include "analyses/sol/sol_graph_ops.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

#include "analyses/graphs/graph_replay_map.h"
#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/op_categories.h"
#include "analyses/perf/models.h"
#include "analyses/perf/iteration_annotation.h"
#include "analyses/sol/sol_attention.h"
#include "analyses/sol/sol_context.h"
#include "analyses/sol/sol_pass.h"

namespace sollens {

namespace {

// Where the launches a replay maps to were recorded; `ops` finds the op a launcher's
// kernels count for there, as for the kernels of this trace (sol_attention.h).
struct SourceTrace {
  const EventStore* store;
  const TraceTree* tree;
  const ModeledOps* modeled;
  SolOpFinder* ops;
};

// The step annotation around a graph launch, for the inference-attention models: the
// innermost whose request aggregates are complete (vLLM's and SGLang's `execute_…`
// spell Σsq·sk; SGLang's own `step[DECODE bs=N]` inside it has no KV lengths), else the
// innermost one.
class ReplaySteps {
 public:
  explicit ReplaySteps(const EventStore& s) : s_(s) {
    for (uint32_t e = 0; e < s.size(); ++e)
      if (s.category[e] == Category::kUserAnnotation && s.phase[e] == Phase::kComplete &&
          perf::is_iteration_annotation(s.name_of(e)))
        steps_.push_back(e);
  }
  std::string_view of(uint32_t launch) const {
    int64_t complete = -1, any = -1;
    const auto later = [&](int64_t current, uint32_t e) { return current < 0 || s_.ts[e] >= s_.ts[static_cast<size_t>(current)]; };
    for (uint32_t e : steps_) {
      if (s_.pid[e] != s_.pid[launch] || s_.tid[e] != s_.tid[launch]) continue;
      if (s_.ts[launch] < s_.ts[e] || s_.ts[launch] >= s_.t_end(e)) continue;
      if (later(any, e)) any = e;
      const auto stats = perf::chunk_stats(s_.name_of(e));
      if (stats && !stats->kv_unknown && later(complete, e)) complete = e;
    }
    const int64_t step = complete >= 0 ? complete : any;
    return step < 0 ? std::string_view{} : s_.name_of(static_cast<size_t>(step));
  }

 private:
  const EventStore& s_;
  std::vector<uint32_t> steps_;
};

// An inference-attention model reads the sequence lengths from the step annotation
// around the op (vLLM's and SGLang's `execute_…_generation_…`). A captured op has the
// capture's annotation; the lengths it ran with are the replay's, so it is evaluated
// again with the annotation around the graph launch. nullopt: nothing to change.
std::optional<ModelEval> with_replay_step(const EventStore& s, const SolOp& op, const SourceTrace& source,
                                          int32_t eval_index, std::string_view replay_step) {
  if (eval_index < 0 || replay_step.empty()) return std::nullopt;
  const ModelEval& captured = source.modeled->evals[static_cast<size_t>(eval_index)];
  if (!captured.entry || captured.entry->family != perf::Family::kInferenceAttention) return std::nullopt;
  std::vector<std::string_view> kernel_names;
  for (uint32_t k : op.kernels) kernel_names.push_back(s.name_of(k));
  ModelEval replayed = captured;
  replayed.result = perf::evaluate(captured.entry->model, {op.function, source.modeled->args[captured.args].args,
                                                           kernel_names, replay_step, nullptr});
  replayed.compute_spec = perf::compute_spec(replayed.result);
  return replayed;
}

void estimate_replayed_op(const EventStore& s, SolOp& op, const SourceTrace& source, uint32_t op_event,
                          bool attention, int32_t eval_index, std::string_view replay_step, const DeviceSpec* device,
                          const SolOptions& options) {
  if (std::optional<ModelEval> replayed = with_replay_step(s, op, source, eval_index, replay_step)) {
    ModeledOps one(*source.store);
    one.evals.push_back(std::move(*replayed));
    estimate_sol_op(s, op, one, 0, device, options);
    return;
  }
  if (!attention) {
    estimate_sol_op(s, op, *source.modeled, eval_index, device, options);
    return;
  }
  perf::ArgsCache& args = source.modeled->args;  // a cache, mutable in ModeledOps
  estimate_attention_op(op, attention_work(op.function, args[args.intern(op_event)].args), device, options);
}

// The ops of one replay: each mapped kernel under the captured op that launched it.
void add_replay_ops(const EventStore& s, const GraphReplay& replay, const SourceTrace& source,
                    std::string_view replay_step, const DeviceSpec* device, const SolOptions& options,
                    GraphReplayOps& out) {
  std::map<uint32_t, size_t> op_of_source;  // captured op -> index into out.ops
  std::vector<int32_t> eval_of_op;
  std::vector<bool> attention_op;
  const size_t first = out.ops.size();
  for (size_t k = 0; k < replay.kernels.size(); ++k) {
    if (replay.source_launch[k] == kUnmapped) continue;
    const auto launch = static_cast<uint32_t>(replay.source_launch[k]);
    const uint32_t launcher = launcher_of_launch(*source.store, *source.tree, launch);
    const int32_t modeled_op = source.ops->op_of_launcher(launcher);
    const uint32_t op_event = modeled_op >= 0 ? static_cast<uint32_t>(modeled_op) : launcher;
    auto [it, inserted] = op_of_source.try_emplace(op_event, out.ops.size());
    if (inserted) {
      SolOp& op = out.ops.emplace_back();
      op.event = replay.launch;
      op.function = source.store->name_of(op_event);
      op.category = categorize_op(op.function, s.name_of(replay.kernels[k]));
      out.sources.push_back({source.store, source.tree, source.modeled, op_event});
      eval_of_op.push_back(modeled_op >= 0 ? source.modeled->eval_of_event[op_event] : -1);
      attention_op.push_back(source.ops->is_attention(op_event, op_event == launcher));
    }
    out.ops[it->second].kernels.push_back(replay.kernels[k]);
    out.claimed[replay.kernels[k]] = 1;
  }
  for (size_t i = first; i < out.ops.size(); ++i) {
    SolOp& op = out.ops[i];
    std::sort(op.kernels.begin(), op.kernels.end(),
              [&](uint32_t a, uint32_t b) { return s.ts[a] < s.ts[b] || (s.ts[a] == s.ts[b] && a < b); });
    op.measured_us = busy_time_us(s, op.kernels);
    estimate_replayed_op(s, op, source, out.sources[i].op, attention_op[i - first], eval_of_op[i - first],
                         replay_step, device, options);
  }
}

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}
std::string ms(double us) { return fixed(us / 1000.0, 2) + " ms"; }
std::string pct(double part, double whole) { return fixed(whole > 0 ? 100.0 * part / whole : 0.0, 1) + " %"; }

// One line per way of mapping: replays, kernels, the share of their time mapped and estimated.
void add_mapping_notes(const EventStore& s, const GraphReplayMap& map, GraphReplayOps& out) {
  struct Totals {
    size_t replays = 0, kernels = 0, other_grid = 0;
    double kernel_us = 0, mapped_us = 0, estimated_us = 0;
    std::vector<uint32_t> launches;
  };
  std::map<ReplaySource, Totals> by_source;
  std::vector<uint8_t> estimated(s.size(), 0);
  for (const SolOp& op : out.ops)
    if (op.estimated)
      for (uint32_t k : op.kernels) estimated[k] = 1;
  for (const GraphReplay& r : map.replays) {
    Totals& t = by_source[r.source];
    ++t.replays;
    t.kernels += r.kernels.size();
    t.other_grid += r.other_grid_kernels;
    t.kernel_us += r.kernel_us;
    t.mapped_us += r.mapped_us;
    std::vector<uint32_t> done;
    for (uint32_t k : r.kernels)
      if (estimated[k]) done.push_back(k);
    t.estimated_us += busy_time_us(s, done);
    t.launches.push_back(r.launch);
  }
  for (const auto& [source, t] : by_source) {
    const std::string head = std::to_string(t.replays) + " graph replay" + (t.replays == 1 ? "" : "s") + " (" +
                             std::to_string(t.kernels) + " kernels, " + ms(t.kernel_us) + ")";
    if (source == ReplaySource::kNone) {
      std::string which;
      for (size_t i = 0; i < t.launches.size() && i < 3; ++i)
        which += std::string(i ? ", " : "") + std::string(s.name_of(t.launches[i])) + " at " +
                 fixed(s.ts[t.launches[i]], 3) + " us";
      if (t.launches.size() > 3) which += ", ...";
      out.notes.push_back(head + " stayed unmapped (" + which + "): " +
                          (map.capture_given ? "the capture trace holds no launches that match their kernels"
                                             : "no capture trace given (--capture) and no capture or eager run of "
                                               "their kernels in this trace") +
                          "; their time has no estimate: it is unmodeled, not slow");
      continue;
    }
    std::string line = head + " mapped from the " + std::string(replay_source_name(source)) + ": " +
                       pct(t.mapped_us, t.kernel_us) + " of their kernel time mapped to the ops captured, " +
                       pct(t.estimated_us, t.kernel_us) + " estimated, " +
                       pct(t.kernel_us - t.mapped_us, t.kernel_us) + " unmapped";
    if (t.other_grid > 0)
      line += " (" + std::to_string(t.other_grid) + " kernels matched an eager kernel of another grid: other shapes, left unmapped)";
    out.notes.push_back(line);
  }
}

}  // namespace

bool GraphReplayOps::claims_all(std::span<const uint32_t> kernels) const {
  if (claimed.empty() || kernels.empty()) return false;
  return std::all_of(kernels.begin(), kernels.end(), [&](uint32_t k) { return claimed[k] != 0; });
}

GraphReplayOps graph_replay_ops(const EventStore& s, const TraceTree& tree, const ModeledOps& modeled,
                                const DeviceSpec* device, const SolOptions& options) {
  GraphReplayOps out;
  const CaptureTrace* capture = options.capture;
  const bool capture_given = capture && capture->store && capture->tree && capture->modeled;
  const GraphReplayMap map =
      map_graph_replays(s, tree, capture_given ? TraceAndTree{capture->store, capture->tree} : TraceAndTree{});
  if (map.replays.empty()) return out;
  out.claimed.assign(s.size(), 0);
  SolOpFinder ops_here(s, tree, modeled);
  const SourceTrace here{&s, &tree, &modeled, &ops_here};
  std::optional<SolOpFinder> captured_ops;
  if (capture_given) captured_ops.emplace(*capture->store, *capture->tree, *capture->modeled);
  const ReplaySteps steps(s);
  for (const GraphReplay& replay : map.replays) {
    if (replay.source == ReplaySource::kNone) continue;
    const SourceTrace source = replay.source == ReplaySource::kCaptureTrace
                                   ? SourceTrace{capture->store, capture->tree, capture->modeled, &*captured_ops}
                                   : here;
    add_replay_ops(s, replay, source, steps.of(replay.launch), device, options, out);
  }
  add_mapping_notes(s, map, out);
  return out;
}

void set_replayed_op_context(const GraphReplayOps& replayed, SolOps& out) {
  std::map<const EventStore*, std::unique_ptr<PassLookup>> passes;  // one per source trace
  for (size_t i = 0; i < replayed.sources.size() && i < out.ops.size(); ++i) {
    const ReplayedOpSource& source = replayed.sources[i];
    SolOp& op = out.ops[i];
    ModuleContext m = module_context(*source.store, *source.tree, source.op);
    if (m.in_module) {
      op.in_module = true;
      op.layer_type = std::move(m.layer_type);
      op.layer_instance = std::move(m.instance);
    }
    std::unique_ptr<PassLookup>& lookup = passes[source.store];
    if (!lookup) lookup = std::make_unique<PassLookup>(*source.store, *source.tree, source.modeled->forward_of_backward);
    const OpPass where = lookup->of(source.op, op.in_module);
    op.pass = sol_pass_name(where.pass);
  }
}

}  // namespace sollens
