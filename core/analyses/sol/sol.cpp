#include "analyses/sol/sol.h"

#include <cmath>
#include <cstdio>
#include <utility>

#include "analyses/sol/sol_phase.h"

namespace sollens {

namespace {

constexpr int kWidth = 90;

std::string line(char c) { return std::string(kWidth, c) + "\n"; }

std::string printed(const char* fmt, auto... args) {
  char buf[512];
  std::snprintf(buf, sizeof buf, fmt, args...);
  return buf;
}

std::string fit(const std::string& s, size_t width) {
  return s.size() <= width ? s : s.substr(0, width - 3) + "...";
}

// "  <key> N ops, E ms (S%) [meas: M ms, eff: F%]" for the first `top` rows.
std::string group_section(const char* title, const Table& t, size_t top) {
  std::string out = std::string(title) + ":\n";
  const Column* key = &t.column(0);
  const Column* count = t.find("count");
  const Column* est = t.find("estimated_time_ms");
  const Column* meas = t.find("measured_time_ms");
  const Column* eff = t.find("efficiency_pct");
  const Column* share = t.find("share_of_estimate_pct");
  const Column* faster = t.find("faster_than_estimate_ops");
  const Column* unmodeled = t.find("unmodeled_time_ms");
  const Column* pass = t.find("pass");
  const Column* tokens_per_s = t.find("tokens_per_s");  // LLM phases (sol_by_phase)
  const auto tokens = [&](size_t r) {
    return tokens_per_s && !tokens_per_s->is_null(r) ? printed(", %.0f tokens/s", tokens_per_s->float_at(r)) : std::string();
  };
  const auto label = [&](size_t r) {
    return fit(pass ? key->string_at(r) + " (" + pass->string_at(r) + ")" : key->string_at(r), 44);
  };
  size_t shown = 0;
  for (size_t r = 0; r < t.num_rows() && shown < top; ++r) {
    ++shown;
    if (count->int_at(r) == 0) {
      out += printed("  %-44s unmodeled only: %lld ops, %.2f ms measured", label(r).c_str(),
                    static_cast<long long>(t.find("unmodeled_ops")->int_at(r)), unmodeled->float_at(r));
      out += tokens(r) + "\n";
      continue;
    }
    out += printed("  %-44s %5lld ops, %8.2f ms (%5.1f%%) [meas: %.2fms, eff: ", label(r).c_str(),
                  static_cast<long long>(count->int_at(r)), est->float_at(r),
                  share->is_null(r) ? 0.0 : share->float_at(r), meas->float_at(r));
    out += eff->is_null(r) ? std::string("n/a") : printed("%.1f%%", eff->float_at(r));
    out += "]";
    if (faster->int_at(r) > 0) out += printed(" !%lld faster than estimate", static_cast<long long>(faster->int_at(r)));
    if (unmodeled->float_at(r) > 0) out += printed(" +%.2fms unmodeled", unmodeled->float_at(r));
    out += tokens(r) + "\n";
  }
  if (t.num_rows() > shown) out += printed("  ... %zu more rows in %s\n", t.num_rows() - shown, t.name().c_str());
  return out;
}

// "  <phase> / <layer type>: E ms (S% of the phase) [meas: M ms, eff: F%]", the first
// `top` rows of each phase.
std::string phase_layer_section(const Table& t, size_t top) {
  std::string out = "By Phase and Layer Type:\n";
  const Column& phase = *t.find("phase");
  const Column& layer = *t.find("layer_type");
  const Column& est = *t.find("estimated_time_ms");
  const Column& meas = *t.find("measured_time_ms");
  const Column& eff = *t.find("efficiency_pct");
  const Column& share = *t.find("share_of_phase_estimate_pct");
  size_t in_phase = 0;
  for (size_t r = 0; r < t.num_rows(); ++r) {
    in_phase = r > 0 && phase.string_at(r) == phase.string_at(r - 1) ? in_phase + 1 : 0;
    if (in_phase >= top) continue;
    out += printed("  %-44s %8.3f ms (%5.1f%% of the phase) [meas: %.3fms, eff: ",
                   fit(phase.string_at(r) + " / " + layer.string_at(r), 44).c_str(), est.float_at(r),
                   share.is_null(r) ? 0.0 : share.float_at(r), meas.float_at(r));
    out += (eff.is_null(r) ? std::string("n/a") : printed("%.1f%%", eff.float_at(r))) + "]\n";
  }
  return out;
}

// What a user waits for first: the step's wall time (idle included) against its speed of
// light, then the whole trace's, then where the wall went.
std::string wall_headline(const SolReport& report) {
  const SolWall& w = report.wall;
  std::string out;
  if (report.step_wall && !std::isnan(report.step_wall->efficiency_pct()))
    out += printed("SOL efficiency per %s: %.1f%% (%.1f us of speed of light in %.2f ms of wall time, mean of %zu)\n",
                   report.step_wall->phase.c_str(), report.step_wall->efficiency_pct(), report.step_wall->sol_us,
                   report.step_wall->wall_us / 1e3, report.step_wall->steps);
  if (std::isnan(w.efficiency_pct())) return out + "SOL efficiency of the wall time: n/a\n";
  out += printed("SOL efficiency of the wall time: %.1f%% (%.2f ms of speed of light in %.2f ms, idle included)\n",
                 w.efficiency_pct(), w.sol_us / 1e3, w.wall_us / 1e3);
  out += printed("  the wall: speed of light %.2f, kernel inefficiency %.2f, unmodeled kernels %.2f, idle %.2f ms "
                 "(host wait %.2f, kernel wait %.2f, other %.2f)\n",
                 w.sol_us / 1e3, w.kernel_inefficiency_us() / 1e3, w.unmodeled_us() / 1e3, w.idle_us() / 1e3,
                 w.idle_host_wait_us / 1e3, w.idle_kernel_wait_us / 1e3, w.idle_other_us / 1e3);
  return out;
}

}  // namespace

std::vector<const Table*> SolReport::tables() const {
  return {&metrics, &by_layer_type, &by_layer_instance, &by_module, &by_function, &by_phase,
          &by_phase_layer, &by_phase_prefix, &by_step, &top_operations, &unmodeled};
}

std::vector<Table> SolReport::release_tables() {
  std::vector<Table> out;
  for (Table* t : {&metrics, &by_layer_type, &by_layer_instance, &by_module, &by_function, &by_phase,
                   &by_phase_layer, &by_phase_prefix, &by_step, &top_operations, &unmodeled})
    out.push_back(std::move(*t));
  return out;
}

namespace {

SolReport tables_of(const EventStore& store, const TraceTree& tree, SolOps ops, const DeviceSpec* device,
                    const SolOptions& options, const CycleReport* cycles) {
  SolReport r;
  if (device) r.device = device->id;
  r.efficiency_factor = options.efficiency_factor;
  r.ops = std::move(ops);
  r.totals = sol_totals(r.ops);
  r.wall = sol_wall(store, tree, r.ops);
  if (cycles) r.step_wall = main_step_wall(store, r.ops, *cycles);
  r.metrics = with_wall_metrics_first(sol_metrics_table(r.ops, options.efficiency_factor), r.wall, r.step_wall);
  r.by_layer_type = sol_by_layer_type_table(r.ops);
  r.by_layer_instance = sol_by_layer_instance_table(r.ops);
  r.by_module = sol_by_module_table(r.ops);
  r.by_function = sol_by_function_table(r.ops);
  r.by_phase = sol_by_phase_table(r.ops);
  add_phase_wall_columns(r.by_phase, store, r.ops);
  add_phase_token_columns(r.by_phase, store);
  r.by_phase_layer = sol_by_phase_layer_table(r.ops);
  r.by_phase_prefix = sol_by_phase_prefix_table(r.ops);
  if (cycles) r.by_step = sol_by_step_table(store, r.ops, *cycles);
  r.top_operations = sol_top_operations_table(r.ops);
  r.unmodeled = sol_unmodeled_table(r.ops);
  return r;
}

}  // namespace

SolReport analyze_sol(const EventStore& store, const TraceTree& tree, const DeviceIdentification& device,
                      const SolOptions& options, const CycleReport* cycles) {
  const DeviceSpec* spec = device.roofline_spec();
  SolReport r = tables_of(store, tree, collect_sol_ops(store, tree, spec, options), spec, options, cycles);
  r.device_how = spec ? std::string(device_status_name(device.status)) + (device.how.empty() ? "" : ": " + device.how)
                      : device.notice;
  return r;
}

SolReport analyze_sol(const EventStore& store, const TraceTree& tree, const LauncherTable& launchers,
                      const ModeledOps& modeled, const DeviceSpec* device, const SolOptions& options,
                      const CycleReport* cycles) {
  return tables_of(store, tree, collect_sol_ops(store, tree, launchers, modeled, device, options), device, options,
                   cycles);
}

std::string sol_console_report(const SolReport& report, size_t top) {
  const SolTotals& t = report.totals;
  std::string out = line('=');
  out += std::string((kWidth - 29) / 2, ' ') + "SOL (Speed of Light) Analysis\n";
  out += line('=');
  out += printed("Device: %s | Ops: %zu\n", report.device.empty() ? "(none)" : report.device.c_str(), t.ops);
  out += wall_headline(report);
  out += printed("  kernel time only: %.2f ms estimated, %.2f ms measured", t.estimated_us / 1e3, t.measured_us / 1e3);
  out += std::isnan(t.efficiency_pct()) ? std::string() : printed(", kernel efficiency %.1f%%", t.efficiency_pct());
  out += "\n";
  out += printed("  device %s; efficiency factor %.2f; %.3f TFLOP; %zu ops faster than their estimate",
                report.device_how.c_str(), report.efficiency_factor, t.flops / 1e12, t.faster_than_estimate);
  if (t.faster_than_estimate > 0)
    out += printed(" (cause: %zu model, %zu device)", t.faster_model, t.faster_device);
  if (t.faster_on_chip > 0) out += printed("; %zu faster than DRAM, explained by the L2 (on_chip)", t.faster_on_chip);
  out += "\n";
  out += printed("  unmodeled: %zu ops, %.2f ms measured (not in the totals)\n", t.unmodeled_ops,
                t.unmodeled_us / 1e3);
  const Column& metric = report.metrics.column(1);
  const auto value = [&](const char* name) {
    for (size_t r = 0; r < report.metrics.num_rows(); ++r)
      if (report.metrics.column(0).string_at(r) == name) return metric.is_null(r) ? 0.0 : metric.float_at(r);
    return 0.0;
  };
  if (value("sol/communication_ops") + value("sol/communication_unmodeled_ops") > 0)
    out += printed("  collectives: estimated %.0f (%.2f ms estimated, %.2f ms measured), "
                  "unmodeled %.0f (%.2f ms)\n", value("sol/communication_ops"),
                  value("sol/communication_estimated_time_ms"), value("sol/communication_measured_time_ms"),
                  value("sol/communication_unmodeled_ops"), value("sol/communication_unmodeled_time_ms"));
  if (report.ops.unattributed_kernels > 0)
    out += printed("  kernels whose launch is not in the trace: %zu, %.2f ms (not attributed)\n",
                  report.ops.unattributed_kernels, report.ops.unattributed_us / 1e3);
  for (const std::string& note : report.ops.notes) out += "  note: " + note + "\n";
  out += line('-') + group_section("By Layer Type", report.by_layer_type, top);
  out += line('-') + group_section("By Function", report.by_function, top);
  out += line('-') + group_section("By Phase", report.by_phase, top);
  if (report.by_phase_layer.num_rows() > 0)
    out += line('-') + phase_layer_section(report.by_phase_layer, top);
  if (report.by_phase_prefix.num_rows() > 0)
    out += line('-') + group_section("Phase totals (overlapping: not to be added up)", report.by_phase_prefix, top);
  if (report.by_step.num_rows() > 0) {
    out += line('-') + "By Step and Layer (mean per repetition):\n";
    const Table& s = report.by_step;
    for (size_t r = 0; r < s.num_rows() && r < 2 * top; ++r)
      out += printed("  pattern %lld %-5s %-7s x%-5lld SOL %9.1f us vs %9.1f us span (%s): "
                    "inefficiency %.1f, unmodeled %.1f, idle %.1f us\n",
                    static_cast<long long>(s.column(1).int_at(r)), s.column(2).string_at(r).c_str(),
                    s.column(3).string_at(r).c_str(), static_cast<long long>(s.column(4).int_at(r)),
                    s.column(6).float_at(r), s.column(7).float_at(r),
                    s.column(8).is_null(r) ? "n/a" : printed("%.1f%%", s.column(8).float_at(r)).c_str(),
                    s.column(9).float_at(r), s.column(10).float_at(r), s.column(11).float_at(r));
  }
  out += line('=');
  return out;
}

}  // namespace sollens
