#include "analyses/solar/solar_report.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "analyses/ops/kernel_launchers.h"
#include "analyses/solar/faster_than_sol.h"
#include "table/document.h"

namespace sollens::solar {
namespace {

constexpr const char* kHeadDefinition =
    "Solar HEAD (NVlabs/SOLAR d3524c44): one whole-graph roofline per variant, "
    "max(sum of tensor-core compute cycles, memory bytes / DRAM bytes per cycle); fused and "
    "fused_prefetched both count each external input once and each model output";
constexpr const char* kDesignDefinition =
    "SOL_GUIDE section 6 design intent: unfused = sum over ops of max(compute_i, memory_i); "
    "fused = sum over ops of max(compute_i, model_io_memory_i); fused_prefetched = "
    "max(sum compute, sum model_io_memory); compute_i = max(tensor-core, CUDA-core cycles)";

std::string fmt(double v, const char* format = "%.4g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

Document perf_doc(const PerfVariant& v) {
  Document d = Document::object();
  d.set("memory_elements", Document::number(v.memory_elements));
  d.set("memory_bytes", Document::number(v.memory_bytes));
  d.set("compute_cycles", Document::number(v.compute_cycles));
  d.set("memory_cycles", Document::number(v.memory_cycles));
  d.set("total_cycles", Document::number(v.total_cycles));
  d.set("runtime_ms", Document::number(v.runtime_ms));
  d.set("arithmetic_intensity", Document::number(v.arithmetic_intensity));
  d.set("bottleneck", Document::text(v.bottleneck));
  return d;
}

double ratio(double a, double b) { return b > 0 ? a / b : 0; }

Document speedup_doc(const SolModel& m) {
  Document d = Document::object();
  d.set("fused_vs_unfused", Document::number(ratio(m.unfused.total_cycles, m.fused.total_cycles)));
  d.set("fused_prefetched_vs_unfused",
        Document::number(ratio(m.unfused.total_cycles, m.fused_prefetched.total_cycles)));
  d.set("fused_prefetched_vs_fused",
        Document::number(ratio(m.fused.total_cycles, m.fused_prefetched.total_cycles)));
  return d;
}

Document model_doc(const SolModel& m, const char* definition, const Totals& t) {
  Document d = Document::object();
  d.set("definition", Document::text(definition));
  d.set("compute_tc_cycles", Document::number(t.compute_tc_cycles));
  d.set("compute_sm_cycles", Document::number(t.compute_sm_cycles));
  d.set("unfused", perf_doc(m.unfused));
  d.set("fused", perf_doc(m.fused));
  d.set("fused_prefetched", perf_doc(m.fused_prefetched));
  return d;
}

std::vector<const SolarNode*> all_nodes(const SolarGraph& s) {
  std::vector<const SolarNode*> out;
  for (const SolarNode& n : s.nodes) out.push_back(&n);
  return out;
}

Document total_doc(const SolarGraph& s, const Totals& t, const WeightTraffic& w) {
  Document d = Document::object();
  d.set("num_layers", Document::number(static_cast<double>(t.nodes)));
  d.set("macs", Document::number(t.macs));
  d.set("other_ops", Document::number(t.other_ops));
  d.set("flops", Document::number(2 * t.macs));
  d.set("unfused_elements", Document::number(t.unfused_elements));
  d.set("fused_elements", Document::number(s.unique_external_elements));
  d.set("fused_prefetched_elements", Document::number(s.unique_external_elements));
  d.set("model_io_elements", Document::number(t.model_io_elements));
  d.set("intermediate_elements", Document::number(t.intermediate_elements));
  d.set("weight_elements", Document::number(t.weight_elements));
  d.set("num_intermediate_tensors", Document::number(static_cast<double>(s.intermediate_tensors)));
  d.set("unfused_bytes", Document::number(t.unfused_bytes));
  d.set("fused_bytes", Document::number(s.unique_external_bytes));
  d.set("model_io_bytes", Document::number(t.model_io_bytes));
  d.set("intermediate_bytes", Document::number(t.intermediate_bytes));
  d.set("weight_bytes", Document::number(t.weight_bytes));
  d.set("state_elements", Document::number(t.state_elements));
  d.set("state_bytes", Document::number(t.state_bytes));
  d.set("num_state_tensors", Document::number(static_cast<double>(s.state_storages)));
  d.set("weights_rule", Document::text(w.rule));
  d.set("weight_passes", Document::number(w.passes));
  d.set("weight_bytes_once", Document::number(s.weight_bytes_once));
  d.set("weight_bytes_read", Document::number(w.bytes_read));
  d.set("corrected_unfused_bytes", Document::number(t.corrected_unfused_bytes));
  return d;
}

std::string_view parameters_from(ParameterSource source) {
  switch (source) {
    case ParameterSource::kOptimizer: return "optimizer parameter list";
    case ParameterSource::kInferred:
      return "never written in the trace, passed as a weight (schema names weight/bias/running_*, "
             "a matmul's weight operand)";
    case ParameterSource::kNone: break;
  }
  return "none found";
}

Document graph_doc(const ExecutionGraph& g, const SolarGraph& s) {
  Document d = Document::object();
  d.set("schema", Document::text(g.schema));
  d.set("pid", Document::number(static_cast<double>(g.pid)));
  d.set("nodes", Document::number(static_cast<double>(g.nodes.size())));
  d.set("op_nodes", Document::number(static_cast<double>(s.op_nodes)));
  d.set("counted_nodes", Document::number(static_cast<double>(s.nodes.size())));
  d.set("composite_nodes", Document::number(static_cast<double>(s.composite_nodes)));
  d.set("view_nodes", Document::number(static_cast<double>(s.view_nodes)));
  d.set("allocation_nodes", Document::number(static_cast<double>(s.allocation_nodes)));
  d.set("communication_nodes", Document::number(static_cast<double>(s.communication_nodes)));
  d.set("uncosted_compute_nodes", Document::number(static_cast<double>(s.uncosted_compute_nodes)));
  d.set("parameters", Document::number(static_cast<double>(s.parameters)));
  d.set("parameters_from", Document::text(std::string(parameters_from(s.parameter_source))));
  d.set("state_tensors", Document::number(static_cast<double>(s.state_storages)));
  return d;
}

Document arch_doc(const SolarHardware& hw) {
  Document d = Document::object();
  d.set("name", Document::text(hw.name));
  d.set("freq_GHz", Document::number(hw.freq_ghz));
  d.set("DRAM_byte_per_cycle", Document::number(hw.dram_bytes_per_cycle));
  d.set("MAC_per_cycle_fp32_tc", Document::number(hw.mac_per_cycle_fp32));
  d.set("MAC_per_cycle_fp16_tc", Document::number(hw.mac_per_cycle_fp16));
  d.set("MAC_per_cycle_bf16_tc", Document::number(hw.mac_per_cycle_bf16));
  d.set("MAC_per_cycle_fp8_tc", Document::number(hw.mac_per_cycle_fp8));
  d.set("MAC_per_cycle_fp32_sm", Document::number(hw.mac_per_cycle_sm));
  d.set("source", Document::text("deviceDB dense peaks at the boost clock, in true MACs (2 FLOPs)"));
  return d;
}

struct SegmentRows {
  std::string name;
  std::vector<const SolarNode*> nodes;
  std::vector<size_t> positions;  // into SolarGraph::nodes
};

std::vector<SegmentRows> segments_of(const SolarInputs& in) {
  std::vector<SegmentRows> out;
  for (Segment s : {Segment::kForward, Segment::kBackward, Segment::kOptimizer})
    out.push_back({std::string(segment_name(s)), {}, {}});
  // One segment per annotation name: steps repeat names, and record_function scopes
  // may nest under their own name (a node then counts once).
  std::map<std::string_view, size_t> annotation_row;
  for (size_t i = 0; i < in.solar->nodes.size(); ++i) {
    const SolarNode& n = in.solar->nodes[i];
    auto& seg = out[static_cast<size_t>(n.segment)];
    seg.nodes.push_back(&n);
    seg.positions.push_back(i);
    for (uint32_t a : n.annotations) {
      const std::string& name = in.graph->nodes[a].name;
      auto [it, added] = annotation_row.emplace(name, out.size());
      if (added) out.push_back({"annotation: " + name, {}, {}});
      SegmentRows& row = out[it->second];
      if (!row.positions.empty() && row.positions.back() == i) continue;
      row.nodes.push_back(&n);
      row.positions.push_back(i);
    }
  }
  return out;
}

Document segment_doc(const SegmentRows& seg, const SolarInputs& in) {
  const SolarHardware* hw = in.hardware ? &*in.hardware : nullptr;
  const Totals t = sum_nodes(seg.nodes, hw);
  Document d = Document::object();
  d.set("name", Document::text(seg.name));
  d.set("num_layers", Document::number(static_cast<double>(t.nodes)));
  d.set("macs", Document::number(t.macs));
  d.set("other_ops", Document::number(t.other_ops));
  d.set("unfused_bytes", Document::number(t.unfused_bytes));
  d.set("model_io_bytes", Document::number(t.model_io_bytes));
  if (hw) {
    // Within a segment the fused traffic is the per-node model I/O (Solar's design
    // text); HEAD's de-duplication is a whole-graph total.
    const SolModel head = head_model(t, t.model_io_elements, t.model_io_bytes, *hw);
    const SolModel design = design_intent_model(t, *hw);
    d.set("unfused_ms", Document::number(head.unfused.runtime_ms));
    d.set("fused_ms", Document::number(head.fused.runtime_ms));
    d.set("design_intent_unfused_ms", Document::number(design.unfused.runtime_ms));
    d.set("design_intent_fused_ms", Document::number(design.fused.runtime_ms));
    d.set("design_intent_fused_prefetched_ms", Document::number(design.fused_prefetched.runtime_ms));
  }
  if (in.measured) {
    double us = 0;
    size_t linked = 0;
    for (size_t p : seg.positions)
      if (in.measured->node_gpu_us[p] >= 0) {
        us += in.measured->node_gpu_us[p];
        ++linked;
      }
    d.set("measured_gpu_ms", Document::number(us / 1000));
    d.set("nodes_linked", Document::number(static_cast<double>(linked)));
  }
  return d;
}

Document faster_doc(const FasterThanSol& f) {
  Document d = Document::object();
  d.set("definition",
        Document::text("ops whose measured GPU time is below Solar's per-op unfused SOL; cause: "
                  "model (our corrected bytes explain it), on_chip (L2 serving up to its "
                  "capacity of the traffic explains it), device (neither: the device data is "
                  "too low), no_gpu_kernel (no GPU time under it: CPU tensors)"));
  d.set("ops", Document::number(static_cast<double>(f.faster)));
  d.set("excess_us", Document::number(f.excess_us));
  d.set("model", Document::number(static_cast<double>(f.model)));
  d.set("on_chip", Document::number(static_cast<double>(f.on_chip)));
  d.set("device", Document::number(static_cast<double>(f.device)));
  d.set("no_gpu_kernel", Document::number(static_cast<double>(f.no_gpu_kernel)));
  d.set("ops_faster_than_corrected_sol", Document::number(static_cast<double>(f.faster_than_corrected)));
  return d;
}

Document measured_doc(const MeasuredRun& m) {
  Document link = Document::object();
  link.set("method", Document::text(m.link_method));
  if (!m.link_note.empty()) link.set("note", Document::text(m.link_note));
  link.set("linked_fraction",
           Document::number(ratio(static_cast<double>(m.compute_nodes_linked),
                             static_cast<double>(m.compute_nodes))));
  link.set("compute_nodes", Document::number(static_cast<double>(m.compute_nodes)));
  link.set("compute_nodes_linked", Document::number(static_cast<double>(m.compute_nodes_linked)));
  link.set("et_nodes", Document::number(static_cast<double>(m.et_nodes)));
  link.set("et_nodes_linked", Document::number(static_cast<double>(m.et_nodes_linked)));
  return link;
}

void add_node_columns(Table& t, const SolarInputs& in, const FasterThanSol* faster) {
  const ExecutionGraph& g = *in.graph;
  auto& id = t.add_column("et_id", ColumnType::kInt);
  auto& name = t.add_column("name", ColumnType::kString);
  auto& kind = t.add_column("kind", ColumnType::kString);
  auto& segment = t.add_column("segment", ColumnType::kString);
  auto& macs = t.add_column("macs", ColumnType::kFloat);
  auto& other = t.add_column("other_ops", ColumnType::kFloat);
  auto& dtype = t.add_column("mac_dtype", ColumnType::kString);
  auto& unfused = t.add_column("unfused_elements", ColumnType::kFloat);
  auto& model_io = t.add_column("model_io_elements", ColumnType::kFloat);
  auto& inter = t.add_column("intermediate_elements", ColumnType::kFloat);
  auto& weight = t.add_column("weight_elements", ColumnType::kFloat);
  auto& unfused_b = t.add_column("unfused_bytes", ColumnType::kFloat);
  auto& model_io_b = t.add_column("model_io_bytes", ColumnType::kFloat);
  auto& state_b = t.add_column("state_bytes", ColumnType::kFloat);
  auto& corrected_b = t.add_column("corrected_unfused_bytes", ColumnType::kFloat);
  auto& note = t.add_column("cost_note", ColumnType::kString);
  Column* sol_unfused = nullptr;
  Column* sol_fused = nullptr;
  Column* sol_corrected = nullptr;
  Column* measured = nullptr;
  Column* cause = nullptr;
  if (in.hardware) {
    sol_unfused = &t.add_column("sol_unfused_us", ColumnType::kFloat);
    sol_fused = &t.add_column("sol_fused_us", ColumnType::kFloat);
    sol_corrected = &t.add_column("sol_corrected_us", ColumnType::kFloat);
  }
  if (in.measured) measured = &t.add_column("measured_gpu_us", ColumnType::kFloat);
  if (faster) cause = &t.add_column("faster_than_sol_cause", ColumnType::kString);
  for (size_t i = 0; i < in.solar->nodes.size(); ++i) {
    const SolarNode& n = in.solar->nodes[i];
    const EtNode& e = g.nodes[n.node];
    id.push_int(e.id);
    name.push_string(e.name);
    kind.push_string(op_kind_name(n.kind));
    segment.push_string(segment_name(n.segment));
    macs.push_float(n.cost.macs);
    other.push_float(n.cost.other_ops);
    dtype.push_string(n.cost.mac_dtype);
    unfused.push_float(n.unfused_elements);
    model_io.push_float(n.model_io_elements);
    inter.push_float(n.intermediate_elements);
    weight.push_float(n.weight_elements);
    unfused_b.push_float(n.unfused_bytes);
    model_io_b.push_float(n.model_io_bytes);
    state_b.push_float(n.state_bytes);
    corrected_b.push_float(n.corrected_unfused_bytes);
    note.push_string(n.cost.note);
    if (in.hardware) {
      const Totals one = sum_nodes({&n}, &*in.hardware);
      const double us_per_cycle = 1e-3 / in.hardware->freq_ghz;
      sol_unfused->push_float(one.per_op_unfused_cycles * us_per_cycle);
      sol_fused->push_float(one.per_op_fused_cycles * us_per_cycle);
      sol_corrected->push_float(op_sol(n, *in.hardware).corrected_us);
    }
    if (cause) cause->push_string(faster->cause[i]);
    if (measured) {
      const double us = in.measured->node_gpu_us[i];
      if (us >= 0) measured->push_float(us);
      else measured->push_null();
    }
  }
}

std::vector<std::string> summary_lines(const SolarInputs& in, const Totals& t,
                                       const std::optional<SolModel>& head,
                                       const std::optional<SolModel>& design) {
  std::vector<std::string> s;
  s.push_back("graph: " + std::to_string(in.graph->nodes.size()) + " ET nodes, " +
              std::to_string(t.nodes) + " counted ops, MACs " + fmt(t.macs) + ", other ops " +
              fmt(t.other_ops) + ", parameters " + std::to_string(in.solar->parameters) +
              (in.solar->parameter_source == ParameterSource::kOptimizer ? " (optimizer)"
               : in.solar->parameter_source == ParameterSource::kInferred ? " (inferred)"
                                                                          : ""));
  s.push_back("bytes: unfused " + fmt(t.unfused_bytes) + ", fused " +
              fmt(in.solar->unique_external_bytes) + ", intermediate " +
              fmt(t.intermediate_bytes) + ", weights " + fmt(t.weight_bytes));
  if (head && design) {
    s.push_back("SOL (Solar HEAD, " + in.hardware->name + "): unfused " +
                fmt(head->unfused.runtime_ms) + " ms, fused " + fmt(head->fused.runtime_ms) +
                " ms, fused+prefetched " + fmt(head->fused_prefetched.runtime_ms) + " ms");
    s.push_back("SOL (design intent): unfused " + fmt(design->unfused.runtime_ms) +
                " ms, fused " + fmt(design->fused.runtime_ms) + " ms, fused+prefetched " +
                fmt(design->fused_prefetched.runtime_ms) + " ms");
  } else {
    s.push_back("no SOL times: " + in.hardware_notice);
  }
  if (in.measured) {
    const MeasuredRun& m = *in.measured;
    if (!m.link_note.empty()) s.push_back("not linked: " + m.link_note);
    s.push_back("measured (" + m.link_method + "): " +
                std::to_string(m.compute_nodes_linked) + "/" + std::to_string(m.compute_nodes) +
                " counted ops linked, their GPU busy time " + fmt(m.linked_gpu_busy_us / 1000) +
                " ms (whole trace " + fmt(m.trace_gpu_busy_us / 1000) + " ms)");
  }
  return s;
}

}  // namespace

MeasuredRun measure_run(const SolarGraph& solar, const ExecutionGraph& graph,
                        const EventStore& store, const TraceTree& tree) {
  MeasuredRun m;
  const EtKinetoLink link = link_execution_trace(graph, store);
  m.link_method = link.method;
  m.link_note = link.note;
  m.et_nodes = graph.nodes.size();
  m.et_nodes_linked = link.linked_nodes;
  std::vector<uint32_t> linked_events;
  for (const SolarNode& n : solar.nodes) {
    ++m.compute_nodes;
    const int64_t e = link.event_of_node[n.node];
    if (e < 0) {
      m.node_gpu_us.push_back(-1);
      continue;
    }
    ++m.compute_nodes_linked;
    linked_events.push_back(static_cast<uint32_t>(e));
    m.node_gpu_us.push_back(measured_gpu_us(store, tree, static_cast<uint32_t>(e)));
  }
  m.linked_gpu_busy_us = measured_gpu_us(store, tree, linked_events);
  m.trace_gpu_busy_us = busy_time_us(store, tree.gpu_events);
  return m;
}

SolModel head_sol(const SolarGraph& g, const Totals& t, const WeightTraffic& w,
                  const SolarHardware& hw) {
  // Never below Solar's own figure: a weight only ever looked up reads fewer bytes
  // than the whole table Solar counts once.
  const double extra_elements = std::max(0.0, w.elements_read - g.weight_elements_once);
  const double extra_bytes = std::max(0.0, w.bytes_read - g.weight_bytes_once);
  return head_model(t, std::min(g.unique_external_elements + extra_elements, t.unfused_elements),
                    std::min(g.unique_external_bytes + extra_bytes, t.unfused_bytes), hw);
}

SolarReport make_solar_report(const SolarInputs& in) {
  SolarReport r;
  const SolarGraph& s = *in.solar;
  const SolarHardware* hw = in.hardware ? &*in.hardware : nullptr;
  const Totals t = sum_nodes(all_nodes(s), hw);
  const WeightTraffic weights = weight_traffic(s, hw);
  std::optional<SolModel> head, head_weights_once, design;
  std::optional<FasterThanSol> faster;
  if (hw) {
    head = head_sol(s, t, weights, *hw);
    head_weights_once = head_model(t, s.unique_external_elements, s.unique_external_bytes, *hw);
    design = design_intent_model(t, *hw);
    if (in.measured) faster = explain_faster_ops(s, *hw, in.measured->node_gpu_us);
  }
  Document doc = Document::object();
  Document& analysis = doc.set("analysis", Document::object());
  analysis.set("total", total_doc(s, t, weights));
  analysis.set("graph", graph_doc(*in.graph, s));
  if (hw) {
    doc.set("arch", arch_doc(*hw));
    Document& perf = doc.set("perf", model_doc(*head, kHeadDefinition, t));
    perf.set("weights_rule", Document::text(weights.rule));
    perf.set("weight_passes", Document::number(weights.passes));
    perf.set("fused_runtime_ms_weights_once", Document::number(head_weights_once->fused.runtime_ms));
    doc.set("speedup", speedup_doc(*head));
    doc.set("memory_reduction",
            Document::number(1 - ratio(head->fused.memory_bytes, head->unfused.memory_bytes)));
    Document& intent = doc.set("design_intent", model_doc(*design, kDesignDefinition, t));
    intent.set("speedup", speedup_doc(*design));
  } else {
    doc.set("perf", Document::null());
    doc.set("perf_notice", Document::text(in.hardware_notice));
  }
  Document& segments = doc.set("segments", Document::array());
  for (const SegmentRows& seg : segments_of(in))
    if (!seg.nodes.empty()) segments.push(segment_doc(seg, in));
  if (in.measured) {
    doc.set("link", measured_doc(*in.measured));
    Document& measured = doc.set("measured", Document::object());
    measured.set("gpu_busy_ms_linked_ops", Document::number(in.measured->linked_gpu_busy_us / 1000));
    measured.set("gpu_busy_ms_trace", Document::number(in.measured->trace_gpu_busy_us / 1000));
    if (faster) measured.set("faster_than_sol", faster_doc(*faster));
    if (head) {
      measured.set("unfused_sol_over_measured",
                   Document::number(ratio(head->unfused.runtime_ms * 1000, in.measured->linked_gpu_busy_us)));
      measured.set("fused_sol_over_measured",
                   Document::number(ratio(head->fused.runtime_ms * 1000, in.measured->linked_gpu_busy_us)));
    }
  }
  Document& warnings = doc.set("warnings", Document::array());
  for (const Diagnostic& w : in.graph->warnings) warnings.push(Document::text(w.message));
  r.document = std::move(doc);
  add_node_columns(r.nodes, in, faster ? &*faster : nullptr);
  r.summary = summary_lines(in, t, head, design);
  r.summary.insert(r.summary.begin() + 2,
                   "weights: " + fmt(s.weight_bytes_once) + " B once, read in up to " +
                       fmt(weights.passes) + " passes = " + fmt(weights.bytes_read) + " B" +
                       (weights.on_chip ? " (all fit in L2: read once)" : "") + "; state " +
                       fmt(t.state_bytes) + " B in " + std::to_string(s.state_storages) +
                       " buffers");
  if (faster)
    r.summary.push_back("faster than SOL: " + std::to_string(faster->faster) +
                        " ops measured below their per-op unfused SOL (" +
                        fmt(faster->excess_us / 1000) + " ms in all): model " +
                        std::to_string(faster->model) + ", on_chip " +
                        std::to_string(faster->on_chip) + ", device " +
                        std::to_string(faster->device) + ", no_gpu_kernel " +
                        std::to_string(faster->no_gpu_kernel) + "; " +
                        std::to_string(faster->faster_than_corrected) +
                        " below the corrected SOL");
  return r;
}

}  // namespace sollens::solar
