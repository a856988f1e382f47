#include "analyses/sol/sol_ops.h"

#include <algorithm>

#include "analyses/roofline/roofline.h"
#include "analyses/sol/sol_attention.h"
#include "analyses/sol/sol_comm.h"
#include "analyses/sol/sol_context.h"
#include "analyses/sol/sol_contiguous.h"
#include "analyses/sol/sol_faster.h"
#include "analyses/sol/sol_graph_ops.h"
#include "analyses/sol/sol_memory_ops.h"
#include "analyses/sol/sol_pass.h"
#include "analyses/sol/sol_phase.h"
#include "base/interval_math.h"

namespace sollens {

namespace {

// sollens's counts (CORRECTIONS.md): the corrected figure where TraceLens's is wrong.
void read_counts(const perf::Metrics& m, double& flops, std::optional<double>& bytes) {
  flops = (m.flops_corrected ? *m.flops_corrected : m.flops).value();
  bytes.reset();
  if (m.bytes_corrected_is_none) return;
  if (m.bytes_corrected) bytes = m.bytes_corrected->value();
  else if (m.bytes) bytes = m.bytes->value();
}

void estimate_op(SolOp& op, const ModeledOps& modeled, int32_t eval_index, const DeviceSpec* device,
                 const SolOptions& options) {
  if (eval_index < 0) {
    op.no_estimate = "no perf model";
    return;
  }
  const ModelEval& eval = modeled.evals[static_cast<size_t>(eval_index)];
  const perf::ModelResult* result = &eval.result;
  std::optional<perf::ModelResult> contiguous;
  if (result->status != perf::Status::kOk || result->fwd.status != perf::Status::kOk) {
    contiguous = elementwise_assuming_contiguous(eval, modeled);
    if (!contiguous) {
      op.no_estimate = "perf model could not read the op's args";
      return;
    }
    result = &*contiguous;
    op.note = "inputs assumed contiguous: the trace has no Input Strides";
  }
  op.compute_spec = contiguous ? perf::compute_spec(*result) : eval.compute_spec;
  std::optional<double> bytes;
  read_counts(result->fwd, op.flops, bytes);
  op.bytes = bytes.value_or(0);
  if (!device) {
    op.no_estimate = "no GPU with known peaks";
    return;
  }
  op.roofline = roofline_estimate(op.flops, bytes, op.compute_spec, *device, options.efficiency_factor);
  op.estimated = op.roofline.ok;
  if (!op.estimated && bytes) estimate_without_dtype_peak(op, result->maf_type, *device, options.efficiency_factor);
  if (!op.estimated) op.no_estimate = op.roofline.why_not;
}

// A copy between host and device runs at PCIe / NVLink-C2C speed, which deviceDB does
// not have; the DRAM roofline would call it hundreds of times too slow.
bool copies_to_or_from_host(const EventStore& s, const std::vector<uint32_t>& kernels) {
  for (uint32_t k : kernels) {
    if (s.category[k] != Category::kGpuMemcpy) continue;
    const std::string_view name = s.name_of(k);
    if (name.find("HtoD") != std::string_view::npos || name.find("DtoH") != std::string_view::npos) return true;
  }
  return false;
}

// After the communication ops: every GPU event left has no op.
void count_unlaunched_gpu_events(const EventStore& s, const TraceTree& tree, SolOps& out) {
  std::vector<uint32_t> others;
  for (uint32_t g : tree.gpu_events)
    if (out.op_of_gpu_event[g] < 0) others.push_back(g);
  out.unattributed_kernels = others.size();
  out.unattributed_us = busy_time_us(s, others);
}

// A backward op outside every module belongs to its forward op's module.
void add_forward_module(const EventStore& s, const TraceTree& tree, SolOp& op) {
  if (op.in_module || op.forward_event < 0) return;
  ModuleContext m = module_context(s, tree, static_cast<uint32_t>(op.forward_event));
  op.in_module = m.in_module;
  op.layer_type = std::move(m.layer_type);
  op.layer_instance = std::move(m.instance);
}

void add_context(const EventStore& s, const TraceTree& tree, const RowMap& forward_of_backward,
                 SolOps& out) {
  const ModuleFramePresence frames = module_frame_presence(s, tree);
  out.module_frames = frames.in_tree;
  if (!frames.in_store)
    out.notes.push_back("the trace has no nn.Module frames (record with with_stack=True): layer types are op categories");
  else if (!frames.in_tree)
    out.notes.push_back("nn.Module frames were not loaded (python frames off): layer types are op categories");
  const PhaseLookup phases(s);
  const PassLookup passes(s, tree, forward_of_backward);
  for (SolOp& op : out.ops) {
    op.phase = phases.phase_of(op.event);
    if (out.module_frames) {
      ModuleContext m = module_context(s, tree, op.event);
      op.in_module = m.in_module;
      op.layer_type = std::move(m.layer_type);
      op.layer_instance = std::move(m.instance);
    }
    const OpPass where = passes.of(op.event, op.in_module);
    op.pass = sol_pass_name(where.pass);
    op.forward_event = where.forward_event;
    if (out.module_frames) add_forward_module(s, tree, op);
    if (!op.in_module) {
      op.layer_type = (out.module_frames ? "(no module) " : "") + op.category;
      op.layer_instance = op.layer_type;
    }
  }
}

}  // namespace

const char* sol_bound_name(SolBound b) {
  switch (b) {
    case SolBound::kCompute: return "compute";
    case SolBound::kMemory: return "memory";
    case SolBound::kCommunication: return "communication";
    case SolBound::kNone: break;
  }
  return "";
}

namespace {

// Why an op with work has no compute ceiling: its data type has no dense peak on the
// device, or the model could not map its data type to a peak at all (int64, say).
std::string no_peak_reason(std::string_view compute_spec, const DeviceSpec& device) {
  if (compute_spec.empty())
    return "no dense peak for this op's data type on " + device.id +
           ": the model maps it to no compute peak (an integer or unknown type)";
  return "no dense " + std::string(compute_spec) + " peak on " + device.id;
}

}  // namespace

RooflineEstimate roofline_estimate(double flops, const std::optional<double>& bytes,
                                   std::string_view compute_spec, const DeviceSpec& device, double factor) {
  RooflineEstimate r;
  if (!bytes) {
    r.why_not = "bytes unknown (dtype not sized by the model)";
    return r;
  }
  if (flops <= 0 && *bytes <= 0) {
    r.why_not = "model counts no work";
    return r;
  }
  const std::optional<double> bw = memory_ceiling_tbps(device);
  if (!bw || !(*bw > 0)) {
    r.why_not = "no memory bandwidth for " + device.id;
    return r;
  }
  r.bandwidth_tbps = *bw * factor;
  if (flops > 0) {
    const auto peak = compute_ceiling(device, compute_spec);
    if (!peak || !(peak->tflops > 0)) {
      r.why_not = no_peak_reason(compute_spec, device);
      return r;
    }
    r.peak_tflops = peak->tflops * factor;
    r.peak_substitute = peak->substitute;
    r.compute_us = flops / (r.peak_tflops * 1e12) * 1e6;
  }
  r.memory_us = *bytes / (r.bandwidth_tbps * 1e12) * 1e6;
  r.estimate_us = std::max(r.compute_us, r.memory_us);
  r.bound = flops > 0 && r.compute_us >= r.memory_us ? SolBound::kCompute : SolBound::kMemory;
  r.ok = true;
  return r;
}

void estimate_sol_op(const EventStore& s, SolOp& op, const ModeledOps& modeled, int32_t eval_index,
                     const DeviceSpec* device, const SolOptions& options) {
  estimate_op(op, modeled, eval_index, device, options);
  if (op.estimated && copies_to_or_from_host(s, op.kernels)) {
    op.estimated = false;
    op.no_estimate = "host-device copy: no host link bandwidth in deviceDB";
  }
}

SolOps collect_sol_ops(const EventStore& s, const TraceTree& tree, const DeviceSpec* device,
                       const SolOptions& options) {
  return collect_sol_ops(s, tree, find_kernel_launchers(s, tree), evaluate_modeled_ops(s, tree), device, options);
}

SolOps collect_sol_ops(const EventStore& s, const TraceTree& tree, const LauncherTable& launchers,
                       const ModeledOps& modeled, const DeviceSpec* device, const SolOptions& options) {
  SolOps out;
  out.op_of_gpu_event.assign(s.size(), -1);
  // Kernels replayed by graph launches count for the ops captured, estimated already.
  const GraphReplayOps replayed = graph_replay_ops(s, tree, modeled, device, options);
  for (const SolOp& op : replayed.ops) {
    for (uint32_t k : op.kernels) out.op_of_gpu_event[k] = static_cast<int32_t>(out.ops.size());
    out.ops.push_back(op);
  }
  const size_t first_launcher_op = out.ops.size();
  std::vector<int32_t> op_of_event(s.size(), -1);
  std::vector<int32_t> eval_of_op(first_launcher_op, -1);
  std::vector<bool> attention_op(first_launcher_op, false);
  std::vector<bool> memory_op(first_launcher_op, false);  // no perf model: sol_memory_ops.h
  SolOpFinder finder(s, tree, modeled);
  OptimizerParams optimizer_params(s, modeled);
  for (const KernelLauncher& l : launchers.launchers) {
    if (replayed.claims_all(l.kernels)) continue;
    const int32_t modeled_op = finder.op_of_launcher(l.event);
    const uint32_t event = modeled_op >= 0 ? static_cast<uint32_t>(modeled_op) : l.event;
    int32_t& index = op_of_event[event];
    if (index < 0) {
      index = static_cast<int32_t>(out.ops.size());
      SolOp& op = out.ops.emplace_back();
      op.event = event;
      op.function = s.name_of(event);
      op.category = l.category;
      eval_of_op.push_back(modeled_op >= 0 ? modeled.eval_of_event[event] : -1);
      attention_op.push_back(finder.is_attention(event, event == l.event));
      memory_op.push_back(modeled_op < 0 && is_sol_memory_op(op.function));
    }
    SolOp& op = out.ops[static_cast<size_t>(index)];
    for (uint32_t k : l.kernels) {
      if (out.op_of_gpu_event[k] >= 0) continue;  // claimed by two launches: count once
      out.op_of_gpu_event[k] = index;
      op.kernels.push_back(k);
    }
  }
  for (size_t i = first_launcher_op; i < out.ops.size(); ++i) {
    SolOp& op = out.ops[i];
    std::sort(op.kernels.begin(), op.kernels.end(),
              [&](uint32_t a, uint32_t b) { return s.ts[a] < s.ts[b] || (s.ts[a] == s.ts[b] && a < b); });
    op.measured_us = busy_time_us(s, op.kernels);
    if (attention_op[i]) estimate_attention_op(op, modeled, device, options);
    else if (memory_op[i]) estimate_memory_op(s, op, modeled, optimizer_params, device, options);
    else estimate_op(op, modeled, eval_of_op[i], device, options);
    if (op.estimated && copies_to_or_from_host(s, op.kernels)) {
      op.estimated = false;
      op.no_estimate = "host-device copy: no host link bandwidth in deviceDB";
    }
  }
  add_communication_ops(s, tree, device, options, out);
  if (device)
    for (SolOp& op : out.ops) explain_faster_than_estimate(op, *device, options.efficiency_factor);
  count_unlaunched_gpu_events(s, tree, out);
  if (!device) out.notes.push_back("no GPU with known dense peaks: no estimates (name one with --device)");
  const bool collectives =
      std::any_of(out.ops.begin(), out.ops.end(), [](const SolOp& op) { return op.communication; });
  if (device && !device->scale_up_link && collectives)
    out.notes.push_back("communication is not estimated: deviceDB has no link bandwidth for " + device->id +
                        "; its collectives are unmodeled ops");
  add_context(s, tree, modeled.forward_of_backward, out);
  set_replayed_op_context(replayed, out);
  out.notes.insert(out.notes.end(), replayed.notes.begin(), replayed.notes.end());
  return out;
}

}  // namespace sollens
