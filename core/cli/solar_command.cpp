// sollens solar: graph speed of light from a PyTorch Execution Trace, beside the
// measured run when its Kineto trace is given.
#include <filesystem>
#include <iostream>

#include "api/command_options.h"
#include "cli/commands.h"
#include "cli/diagnostic_lines.h"
#include "cli/output_files.h"
#include "cli/loaded_trace.h"
#include "cli/read_file.h"
#include "cli/trace_args.h"
#include "writers/csv_writer.h"
#include "writers/document_writer.h"

namespace sollens::cli {

namespace {

// The options of api/solar_flags.def and the Execution Trace.
struct SolarArgs : SolarCliOptions {
  std::string et;
};

// The Execution Trace into the session; prints the error and returns false when it
// cannot be read.
bool load_graph(const std::string& path, Session& session) {
  PaddedBuffer bytes;
  if (const Status read = read_file(path, bytes); !read.ok()) {
    print_error(read);
    return false;
  }
  const Result<LoadStats> loaded = session.load_execution_trace(std::move(bytes));
  if (!loaded.ok()) print_error(Status(loaded.code(), path + ": " + loaded.message()));
  return loaded.ok();
}

}  // namespace

int run_solar(const std::vector<std::string>& args) {
  SolarArgs a;
  SolarCliOptions& options = a;
  if (!parse_trace_args("solar", args, option_reader(args, options_in(solar_cli_options(), options)), a.et)) return 2;
  // The Execution Trace first, then the Kineto trace beside it (loading that keeps it).
  LoadedTrace loaded;
  if (!load_graph(a.et, loaded.session)) return 1;
  for (const Diagnostic& w : loaded.session.execution_trace_warnings()) print_diagnostic(std::cerr, w);
  if (!a.kineto.empty() && !load_and_model(a.kineto, {}, loaded)) return 1;
  SolarRequest request;
  request.device_name = a.device;
  request.no_device_notice = "no device: an Execution Trace names none; pass --device NAME or --kineto TRACE";
  const SolarResult result = loaded.session.solar(request);
  const solar::SolarReport& report = result.report;

  if (!make_output_dir(a.out_dir)) return 3;
  const std::filesystem::path dir(a.out_dir);
  if (!write_text_file(dir / "solar.json", document_json(report.document) + "\n") ||
      !write_text_file(dir / "solar.yaml", document_yaml(report.document)) ||
      !write_text_file(dir / "solar_nodes.csv", to_csv(report.nodes)))
    return 3;
  for (const std::string& line : report.summary) std::cout << line << "\n";
  std::cerr << "sollens: solar: wrote solar.json, solar.yaml, solar_nodes.csv in " << a.out_dir
            << "\n";
  return 0;
}

}  // namespace sollens::cli
