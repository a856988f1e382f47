// sollens solar: graph speed of light from a PyTorch Execution Trace, beside the
// measured run when its Kineto trace is given.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "devices/device_identify.h"
#include "analyses/solar/solar_report.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "cli/loaded_trace.h"
#include "cli/read_file.h"
#include "cli/trace_args.h"
#include "ingest/execution_trace_reader.h"
#include "writers/csv_writer.h"

namespace sollens::cli {

namespace {

struct SolarArgs {
  std::string et, kineto, device, out_dir = "sollens-solar";
};

std::unique_ptr<ExecutionGraph> load_graph(const std::string& path) {
  PaddedBuffer bytes;
  std::string error;
  if (!read_file(path, bytes, error)) {
    std::cerr << "sollens: " << error << "\n";
    return nullptr;
  }
  EtLoadResult loaded = load_execution_trace(std::move(bytes));
  if (!loaded.graph) std::cerr << "sollens: " << path << ": " << loaded.error << "\n";
  return std::move(loaded.graph);
}

// --device wins; else the Kineto trace's GPU; else none (never a guess).
void choose_hardware(const SolarArgs& a, const EventStore* kineto, solar::SolarInputs& in) {
  const DeviceSpec* spec = nullptr;
  if (!a.device.empty()) {
    spec = find_device(a.device);
  } else if (kineto) {
    const DeviceIdentification id = identify_trace_device(*kineto);
    spec = id.roofline_spec();
    if (!spec) in.hardware_notice = id.notice;
  } else {
    in.hardware_notice =
        "no device: an Execution Trace names none; pass --device NAME or --kineto TRACE";
  }
  if (spec) {
    in.hardware = solar::solar_hardware(*spec);
    if (!in.hardware)
      in.hardware_notice = spec->id + " has no boost clock, bandwidth or fp32 peak in deviceDB";
  }
}

}  // namespace

int run_solar(const std::vector<std::string>& args) {
  SolarArgs a;
  const auto option = [&](size_t& i) {
    const std::string& arg = args[i];
    if (arg == "--device") return read_device_option(args, i, a.device);
    if (arg != "--out" && arg != "--kineto") return OptionResult::kNotMine;
    if (i + 1 >= args.size()) {
      std::cerr << "sollens: " << arg << " needs a value\n";
      return OptionResult::kUsageError;
    }
    (arg == "--out" ? a.out_dir : a.kineto) = args[++i];
    return OptionResult::kTaken;
  };
  if (!parse_trace_args("solar", args, option, a.et)) return 2;
  const auto graph = load_graph(a.et);
  if (!graph) return 1;
  for (const std::string& w : graph->warnings) std::cerr << "sollens: warning: " << w << "\n";
  const solar::SolarGraph solar_graph = solar::build_solar_graph(*graph);

  solar::SolarInputs in;
  in.graph = graph.get();
  in.solar = &solar_graph;
  std::optional<LoadedTrace> kineto;
  if (!a.kineto.empty()) {
    kineto.emplace();
    if (!load_and_model(a.kineto, {}, *kineto)) return 1;
    in.measured = solar::measure_run(solar_graph, *graph, kineto->session.store(), kineto->session.tree());
  }
  choose_hardware(a, kineto ? &kineto->session.store() : nullptr, in);
  const solar::SolarReport report = solar::make_solar_report(in);

  if (!make_output_dir(a.out_dir)) return 3;
  const std::filesystem::path dir(a.out_dir);
  if (!write_text_file(dir / "solar.json", report.json) || !write_text_file(dir / "solar.yaml", report.yaml) ||
      !write_text_file(dir / "solar_nodes.csv", to_csv(report.nodes)))
    return 3;
  for (const std::string& line : report.summary) std::cout << line << "\n";
  std::cerr << "sollens: solar: wrote solar.json, solar.yaml, solar_nodes.csv in " << a.out_dir
            << "\n";
  return 0;
}

}  // namespace sollens::cli
