// sollens sol: speed of light from a trace — the console report, sol.json and one CSV per table.
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "api/command_options.h"
#include "cli/commands.h"
#include "cli/output_files.h"
#include "cli/loaded_trace.h"
#include "cli/trace_args.h"
#include "writers/csv_writer.h"
#include "writers/sol_json.h"

namespace sollens::cli {

namespace {

// The options of api/sol_flags.def and the trace.
struct SolArgs : SolCliOptions {
  std::string trace;
};

bool parse_sol_args(const std::vector<std::string>& args, SolArgs& out) {
  SolCliOptions& options = out;
  return parse_trace_args("sol", args, option_reader(args, options_in(sol_cli_options(), options)), out.trace);
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
  const SolResult result = session.sol({a.device_name, a.efficiency});
  std::cout << sol_console_text(result);

  if (!make_output_dir(a.out_dir)) return 3;
  const std::filesystem::path dir(a.out_dir);
  if (!write_text_file(dir / "sol.json", sol_json(result.report, result.device) + "\n")) return 3;
  for (const Table* t : result.report.tables())
    if (!write_text_file(dir / (t->name() + ".csv"), to_csv(*t))) return 3;
  std::cerr << "sollens: sol: wrote sol.json and " << result.report.tables().size() << " CSV files in " << a.out_dir
            << "\n";
  return 0;
}

}  // namespace sollens::cli
