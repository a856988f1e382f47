#include "analyses/sol/sol_tables.h"

#include "analyses/sol/sol_context.h"
#include "analyses/sol/sol_phase.h"
#include "base/nan.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <map>
#include <string>

namespace sollens {

namespace {


struct Group {
  std::string key;
  std::string layer_type;  // by_layer_instance and by_module only
  std::string pass;        // the tables keyed by (layer, pass) only
  SolTotals totals;
};

// The layer tables keep each pass of a layer apart: its forward and its backward rows.
std::string key_with_pass(std::string key, const SolOp& op) { return key + '\x1f' + op.pass; }

void add_op(SolTotals& t, const SolOp& op) {
  if (!op.estimated) {
    ++t.unmodeled_ops;
    t.unmodeled_us += op.measured_us;
    return;
  }
  ++t.ops;
  t.estimated_us += op.roofline.estimate_us;
  t.measured_us += op.measured_us;
  t.flops += op.flops;
  (op.communication ? t.link_bytes : t.bytes) += op.bytes;
  if (op.faster_than_estimate()) ++t.faster_than_estimate;
  switch (op.faster_cause) {
    case FasterCause::kOnChip: ++t.faster_on_chip; break;
    case FasterCause::kModel: ++t.faster_model; break;
    case FasterCause::kDevice: ++t.faster_device; break;
    case FasterCause::kNone: break;
  }
}

void push_or_null(Column& c, double v) {
  if (std::isnan(v)) c.push_null();
  else c.push_float(v);
}

// Groups in first-seen order, then by estimated time descending (stable).
std::vector<Group> group_ops(const SolOps& ops, const std::function<std::string(const SolOp&)>& key_of,
                             bool keep_layer_type = false, bool by_pass = false) {
  std::vector<Group> groups;
  std::map<std::string, size_t> index;
  for (const SolOp& op : ops.ops) {
    std::string key = key_of(op);
    auto [it, inserted] = index.try_emplace(by_pass ? key_with_pass(key, op) : key, groups.size());
    if (inserted)
      groups.push_back({std::move(key), keep_layer_type ? op.layer_type : std::string(),
                        by_pass ? op.pass : std::string(), {}});
    add_op(groups[it->second].totals, op);
  }
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    if (a.totals.estimated_us != b.totals.estimated_us) return a.totals.estimated_us > b.totals.estimated_us;
    return a.totals.unmodeled_us > b.totals.unmodeled_us;
  });
  return groups;
}

Table group_table(const std::string& name, const std::string& key_column, const std::vector<Group>& groups,
                  double total_estimated_us, bool with_layer_type = false, bool with_pass = false) {
  Table t(name, TableKind::kSpeedOfLight);
  Column& key = t.add_column(key_column, ColumnType::kString);
  Column* layer_type = with_layer_type ? &t.add_column("layer_type", ColumnType::kString) : nullptr;
  Column* pass = with_pass ? &t.add_column("pass", ColumnType::kString) : nullptr;
  Column& count = t.add_column("count", ColumnType::kInt);
  Column& est = t.add_column("estimated_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  Column& meas = t.add_column("measured_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  Column& eff = t.add_column("efficiency_pct", ColumnType::kFloat, Unit::kPercent);
  Column& share = t.add_column("share_of_estimate_pct", ColumnType::kFloat, Unit::kPercent);
  Column& tflop = t.add_column("tflop", ColumnType::kFloat);
  Column& faster = t.add_column("faster_than_estimate_ops", ColumnType::kInt);
  Column& unmodeled = t.add_column("unmodeled_ops", ColumnType::kInt);
  Column& unmodeled_ms = t.add_column("unmodeled_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  for (const Group& g : groups) {
    key.push_string(g.key);
    if (layer_type) layer_type->push_string(g.layer_type);
    if (pass) pass->push_string(g.pass);
    count.push_int(static_cast<int64_t>(g.totals.ops));
    est.push_float(g.totals.estimated_us / 1e3);
    meas.push_float(g.totals.measured_us / 1e3);
    push_or_null(eff, g.totals.efficiency_pct());
    push_or_null(share, total_estimated_us > 0 ? g.totals.estimated_us / total_estimated_us * 100 : kNaN);
    tflop.push_float(g.totals.flops / 1e12);
    faster.push_int(static_cast<int64_t>(g.totals.faster_than_estimate));
    unmodeled.push_int(static_cast<int64_t>(g.totals.unmodeled_ops));
    unmodeled_ms.push_float(g.totals.unmodeled_us / 1e3);
  }
  return t;
}

// The collectives (sol_comm.h): estimated ones are in the totals above, the others in
// the unmodeled ones; these split them out.
void add_communication_metrics(Table& m, const SolOps& ops) {
  SolTotals comm;
  for (const SolOp& op : ops.ops)
    if (op.communication) add_op(comm, op);
  add_metric(m, "sol/communication_ops", static_cast<double>(comm.ops));
  add_metric(m, "sol/communication_estimated_time_ms", comm.estimated_us / 1e3);
  add_metric(m, "sol/communication_measured_time_ms", comm.measured_us / 1e3);
  add_metric(m, "sol/communication_gb", comm.link_bytes / 1e9);
  add_metric(m, "sol/communication_unmodeled_ops", static_cast<double>(comm.unmodeled_ops));
  add_metric(m, "sol/communication_unmodeled_time_ms", comm.unmodeled_us / 1e3);
}

}  // namespace

void add_metric(Table& t, const std::string& name, double value) {
  t.column(0).push_string(name);
  push_or_null(t.column(1), value);
}

double SolTotals::efficiency_pct() const { return measured_us > 0 ? estimated_us / measured_us * 100 : kNaN; }

SolTotals sol_totals(const SolOps& ops) {
  SolTotals t;
  for (const SolOp& op : ops.ops) add_op(t, op);
  return t;
}

Table sol_metrics_table(const SolOps& ops, double efficiency_factor) {
  const SolTotals t = sol_totals(ops);
  Table m("sol_metrics", TableKind::kSpeedOfLight);
  m.add_column("metric", ColumnType::kString);
  m.add_column("value", ColumnType::kFloat);
  add_metric(m, "sol/total_ops", static_cast<double>(t.ops));
  add_metric(m, "sol/total_tflops", t.flops / 1e12);
  add_metric(m, "sol/total_memory_gb", t.bytes / 1e9);
  add_metric(m, "sol/estimated_time_ms", t.estimated_us / 1e3);
  add_metric(m, "sol/measured_time_ms", t.measured_us / 1e3);
  add_metric(m, "sol/kernel_efficiency_pct", t.efficiency_pct());
  add_metric(m, "sol/faster_than_estimate_ops", static_cast<double>(t.faster_than_estimate));
  add_metric(m, "sol/faster_cause_on_chip_ops", static_cast<double>(t.faster_on_chip));
  add_metric(m, "sol/faster_cause_model_ops", static_cast<double>(t.faster_model));
  add_metric(m, "sol/faster_cause_device_ops", static_cast<double>(t.faster_device));
  add_metric(m, "sol/unmodeled_ops", static_cast<double>(t.unmodeled_ops));
  add_metric(m, "sol/unmodeled_time_ms", t.unmodeled_us / 1e3);
  add_communication_metrics(m, ops);
  add_metric(m, "sol/unattributed_kernels", static_cast<double>(ops.unattributed_kernels));
  add_metric(m, "sol/unattributed_time_ms", ops.unattributed_us / 1e3);
  add_metric(m, "sol/efficiency_factor", efficiency_factor);
  return m;
}

Table sol_by_layer_type_table(const SolOps& ops) {
  return group_table("sol_by_layer_type", "layer_type",
                     group_ops(ops, [](const SolOp& op) { return op.layer_type; }, false, true),
                     sol_totals(ops).estimated_us, false, true);
}

Table sol_by_layer_instance_table(const SolOps& ops) {
  return group_table("sol_by_layer_instance", "layer_instance",
                     group_ops(ops, [](const SolOp& op) { return op.layer_instance; }, true, true),
                     sol_totals(ops).estimated_us, true, true);
}

Table sol_by_function_table(const SolOps& ops) {
  return group_table("sol_by_function", "function",
                     group_ops(ops, [](const SolOp& op) { return op.function; }), sol_totals(ops).estimated_us);
}

Table sol_by_phase_table(const SolOps& ops) {
  return group_table("sol_by_phase", "phase", group_ops(ops, [](const SolOp& op) { return op.phase; }),
                     sol_totals(ops).estimated_us);
}

Table sol_by_phase_prefix_table(const SolOps& ops) {
  std::vector<Group> groups;
  std::map<std::string, size_t> index;
  for (const SolOp& op : ops.ops) {
    for (size_t slash = op.phase.find('/'); slash != std::string::npos; slash = op.phase.find('/', slash + 1)) {
      std::string key = op.phase.substr(0, slash) + " (total)";
      auto [it, inserted] = index.try_emplace(key, groups.size());
      if (inserted) groups.push_back({std::move(key), {}, {}, {}});
      add_op(groups[it->second].totals, op);
    }
  }
  // "P (total)" also holds ops whose phase is exactly P.
  for (const SolOp& op : ops.ops) {
    const auto it = index.find(op.phase + " (total)");
    if (it != index.end()) add_op(groups[it->second].totals, op);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const Group& a, const Group& b) { return a.totals.estimated_us > b.totals.estimated_us; });
  return group_table("sol_by_phase_prefix", "phase", groups, sol_totals(ops).estimated_us);
}

Table sol_by_phase_layer_table(const SolOps& ops) {
  Table t("sol_by_phase_layer", TableKind::kSpeedOfLight);
  const bool any_phase = std::any_of(ops.ops.begin(), ops.ops.end(), [](const SolOp& op) { return op.phase != kNoPhase; });
  std::map<std::string, size_t> phase_order;
  std::map<std::string, SolTotals> phase_totals;
  for (const SolOp& op : ops.ops) {
    phase_order.try_emplace(op.phase, phase_order.size());
    add_op(phase_totals[op.phase], op);
  }
  // group_ops orders by estimate; the stable sort keeps that order within a phase.
  std::vector<Group> groups = any_phase ? group_ops(ops, [](const SolOp& op) { return op.phase + '\x1e' + op.layer_type; },
                                                    false, true)
                                        : std::vector<Group>{};
  std::stable_sort(groups.begin(), groups.end(), [&](const Group& a, const Group& b) {
    return phase_order.at(a.key.substr(0, a.key.find('\x1e'))) < phase_order.at(b.key.substr(0, b.key.find('\x1e')));
  });
  Column& phase = t.add_column("phase", ColumnType::kString);
  Column& layer_type = t.add_column("layer_type", ColumnType::kString);
  Column& pass = t.add_column("pass", ColumnType::kString);
  Column& count = t.add_column("count", ColumnType::kInt);
  Column& est = t.add_column("estimated_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  Column& meas = t.add_column("measured_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  Column& eff = t.add_column("efficiency_pct", ColumnType::kFloat, Unit::kPercent);
  Column& share = t.add_column("share_of_phase_estimate_pct", ColumnType::kFloat, Unit::kPercent);
  Column& unmodeled = t.add_column("unmodeled_ops", ColumnType::kInt);
  Column& unmodeled_ms = t.add_column("unmodeled_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  for (const Group& g : groups) {
    const size_t cut = g.key.find('\x1e');
    const std::string name = g.key.substr(0, cut);
    const double phase_estimate_us = phase_totals.at(name).estimated_us;
    phase.push_string(name);
    layer_type.push_string(g.key.substr(cut + 1));
    pass.push_string(g.pass);
    count.push_int(static_cast<int64_t>(g.totals.ops));
    est.push_float(g.totals.estimated_us / 1e3);
    meas.push_float(g.totals.measured_us / 1e3);
    push_or_null(eff, g.totals.efficiency_pct());
    push_or_null(share, phase_estimate_us > 0 ? g.totals.estimated_us / phase_estimate_us * 100 : kNaN);
    unmodeled.push_int(static_cast<int64_t>(g.totals.unmodeled_ops));
    unmodeled_ms.push_float(g.totals.unmodeled_us / 1e3);
  }
  return t;
}

Table sol_by_module_table(const SolOps& ops) {
  std::vector<Group> groups;
  std::map<std::string, size_t> index;
  for (const SolOp& op : ops.ops) {
    if (!op.in_module) continue;
    const std::string& path = op.layer_instance;
    for (size_t end = path.find('.');; end = path.find('.', end + 1)) {
      std::string key = path.substr(0, end);
      auto [it, inserted] = index.try_emplace(key_with_pass(key, op), groups.size());
      if (inserted) {
        const size_t last = key.rfind('.');
        groups.push_back(
            {key, std::string(module_class(last == std::string::npos ? key : key.substr(last + 1))), op.pass, {}});
      }
      add_op(groups[it->second].totals, op);
      if (end == std::string::npos) break;
    }
  }
  // Outer modules before inner ones; siblings in the order they first ran.
  std::vector<size_t> depth(groups.size());
  for (size_t i = 0; i < groups.size(); ++i) depth[i] = static_cast<size_t>(std::count(groups[i].key.begin(), groups[i].key.end(), '.'));
  Table t = group_table("sol_by_module", "module", groups, sol_totals(ops).estimated_us, true, true);
  Column& d = t.add_column("depth", ColumnType::kInt);
  for (size_t v : depth) d.push_int(static_cast<int64_t>(v));
  return t;
}

Table sol_top_operations_table(const SolOps& ops, size_t limit) {
  std::vector<const SolOp*> top;
  for (const SolOp& op : ops.ops)
    if (op.estimated) top.push_back(&op);
  std::stable_sort(top.begin(), top.end(), [](const SolOp* a, const SolOp* b) {
    return a->roofline.estimate_us > b->roofline.estimate_us;
  });
  if (top.size() > limit) {
    std::stable_partition(top.begin() + static_cast<std::ptrdiff_t>(limit), top.end(),
                          [](const SolOp* op) { return op->faster_cause != FasterCause::kNone; });
    top.erase(std::find_if(top.begin() + static_cast<std::ptrdiff_t>(limit), top.end(),
                           [](const SolOp* op) { return op->faster_cause == FasterCause::kNone; }),
              top.end());
  }
  Table t("sol_top_operations", TableKind::kSpeedOfLight);
  Column& uid = t.add_column("uid", ColumnType::kInt);
  Column& function = t.add_column("function", ColumnType::kString);
  Column& layer_type = t.add_column("layer_type", ColumnType::kString);
  Column& instance = t.add_column("layer_instance", ColumnType::kString);
  Column& phase = t.add_column("phase", ColumnType::kString);
  Column& spec = t.add_column("compute_spec", ColumnType::kString);
  Column& bound = t.add_column("bound", ColumnType::kString);
  Column& gflop = t.add_column("gflop", ColumnType::kFloat, Unit::kGflop);
  Column& mb = t.add_column("data_moved_mb", ColumnType::kFloat, Unit::kMegabytes);
  Column& compute = t.add_column("compute_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& memory = t.add_column("memory_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& link = t.add_column("communication_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& est = t.add_column("estimated_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& meas = t.add_column("measured_time_us", ColumnType::kFloat, Unit::kMicroseconds);
  Column& eff = t.add_column("efficiency_pct", ColumnType::kFloat, Unit::kPercent);
  Column& faster = t.add_column("faster_than_estimate", ColumnType::kBool);
  Column& cause = t.add_column("faster_cause", ColumnType::kString);
  Column& pass = t.add_column("pass", ColumnType::kString);
  Column& note = t.add_column("note", ColumnType::kString);
  for (const SolOp* op : top) {
    uid.push_int(op->event);
    function.push_string(op->function);
    layer_type.push_string(op->layer_type);
    instance.push_string(op->layer_instance);
    phase.push_string(op->phase);
    spec.push_string(op->compute_spec);
    bound.push_string(sol_bound_name(op->roofline.bound));
    gflop.push_float(op->flops / 1e9);
    mb.push_float(op->bytes / 1e6);
    compute.push_float(op->roofline.compute_us);
    memory.push_float(op->roofline.memory_us);
    link.push_float(op->roofline.communication_us);
    est.push_float(op->roofline.estimate_us);
    meas.push_float(op->measured_us);
    push_or_null(eff, op->measured_us > 0 ? op->roofline.estimate_us / op->measured_us * 100 : kNaN);
    faster.push_bool(op->faster_than_estimate());
    cause.push_string(faster_cause_name(op->faster_cause));
    pass.push_string(op->pass);
    note.push_string(op->note);
  }
  return t;
}

Table sol_unmodeled_table(const SolOps& ops) {
  struct Row {
    size_t count = 0;
    double us = 0;
  };
  std::map<std::pair<std::string, std::string>, Row> rows;
  for (const SolOp& op : ops.ops) {
    if (op.estimated) continue;
    Row& r = rows[{op.function, op.no_estimate}];
    ++r.count;
    r.us += op.measured_us;
  }
  std::vector<std::pair<std::pair<std::string, std::string>, Row>> sorted(rows.begin(), rows.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second.us > b.second.us; });
  if (ops.unattributed_kernels > 0)
    sorted.push_back({{"(kernels without a launch)", "no op to attribute them to"},
                      {ops.unattributed_kernels, ops.unattributed_us}});
  Table t("sol_unmodeled", TableKind::kSpeedOfLight);
  Column& function = t.add_column("function", ColumnType::kString);
  Column& reason = t.add_column("reason", ColumnType::kString);
  Column& count = t.add_column("count", ColumnType::kInt);
  Column& meas = t.add_column("measured_time_ms", ColumnType::kFloat, Unit::kMilliseconds);
  for (const auto& [key, r] : sorted) {
    function.push_string(key.first);
    reason.push_string(key.second);
    count.push_int(static_cast<int64_t>(r.count));
    meas.push_float(r.us / 1e3);
  }
  return t;
}

}  // namespace sollens
