// sollens sol: speed of light from a trace — the console report, sol.json and one CSV per table.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "analyses/cycles/cycles.h"
#include "writers/device_json.h"
#include "devices/device_identify.h"
#include "analyses/sol/sol.h"
#include "base/json_text.h"
#include "base/number_format.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "cli/loaded_trace.h"
#include "cli/trace_args.h"
#include "writers/csv_writer.h"
#include "writers/json_writer.h"

namespace sollens::cli {

namespace {

struct SolArgs {
  std::string trace, out_dir = "sollens-sol", device_name, capture;
  double efficiency = 1.0;
};

bool parse_sol_args(const std::vector<std::string>& args, SolArgs& out) {
  const auto option = [&](size_t& i) {
    const std::string& a = args[i];
    if (a == "--device") return read_device_option(args, i, out.device_name);
    if (a == "--efficiency") return read_efficiency_option(args, i, out.efficiency);
    if (a != "--out" && a != "--capture") return OptionResult::kNotMine;
    if (i + 1 >= args.size()) {
      std::cerr << "sollens: " << a << (a == "--out" ? " needs a directory\n" : " needs the graph-capture trace\n");
      return OptionResult::kUsageError;
    }
    (a == "--out" ? out.out_dir : out.capture) = args[++i];
    return OptionResult::kTaken;
  };
  return parse_trace_args("sol", args, option, out.trace);
}

std::string metric_json(double value) {
  if (std::isnan(value)) return "null";
  if (value == std::floor(value) && std::fabs(value) < 1e15) return std::to_string(static_cast<long long>(value));
  return format_python_float(value);
}

// {"device", "device_identification", "efficiency_factor", "notes", "metrics", and the tables}.
std::string sol_json(const SolReport& r, const DeviceIdentification& device) {
  JsonMembers metrics;
  for (size_t row = 0; row < r.metrics.num_rows(); ++row)
    metrics.emplace_back(r.metrics.column(0).string_at(row),
                         r.metrics.column(1).is_null(row) ? "null" : metric_json(r.metrics.column(1).float_at(row)));
  std::string notes = "[";
  for (const std::string& n : r.ops.notes) notes += (notes.size() > 1 ? "," : "") + json_string(n);
  notes += "]";
  JsonMembers top = {
      {"device", r.device.empty() ? "null" : json_string(r.device)},
      {"device_identification", device_identification_json(device)},
      {"efficiency_factor", format_python_float(r.efficiency_factor)},
      {"module_frames", r.ops.module_frames ? "true" : "false"},
      {"notes", notes},
      {"metrics", json_object(metrics)},
  };
  const std::pair<const char*, const Table*> tables[] = {
      {"by_layer_type", &r.by_layer_type}, {"by_layer_instance", &r.by_layer_instance},
      {"by_module", &r.by_module},
      {"by_function", &r.by_function},     {"by_phase", &r.by_phase},
      {"by_phase_prefix", &r.by_phase_prefix}, {"by_step", &r.by_step},
      {"top_operations", &r.top_operations}, {"unmodeled", &r.unmodeled}};
  for (const auto& [key, table] : tables) top.emplace_back(key, to_json(*table));
  return json_object(top) + "\n";
}

}  // namespace

int run_sol(const std::vector<std::string>& args) {
  SolArgs a;
  if (!parse_sol_args(args, a)) return 2;
  TreeOptions tree_options;
  tree_options.include_python = true;  // nn.Module frames give the layer types
  LoadedTrace loaded;
  if (!load_and_model(a.trace, tree_options, loaded)) return 1;
  if (!a.capture.empty() && !load_capture_trace(a.capture, loaded)) return 1;
  const Session& session = loaded.session;
  print_warnings(session, std::cerr);
  const EventStore& store = session.store();
  const DeviceIdentification device = session.identify_device(a.device_name);
  const CycleReport& cycles = session.default_cycles();
  SolOptions options;
  options.efficiency_factor = a.efficiency;
  options.capture = session.capture();
  const SolReport report = analyze_sol(store, session.tree(), device, options, &cycles);
  std::cout << sol_console_report(report);

  if (!make_output_dir(a.out_dir)) return 3;
  const std::filesystem::path dir(a.out_dir);
  if (!write_text_file(dir / "sol.json", sol_json(report, device))) return 3;
  for (const Table* t : report.tables())
    if (!write_text_file(dir / (t->name() + ".csv"), to_csv(*t))) return 3;
  std::cerr << "sollens: sol: wrote sol.json and " << report.tables().size() << " CSV files in " << a.out_dir
            << "\n";
  return 0;
}

}  // namespace sollens::cli
