// sollens cycles: repeating-kernel cycles (iterations, decode steps, layers) as CSV + JSON.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "api/command_options.h"
#include "cli/commands.h"
#include "cli/diagnostic_lines.h"
#include "cli/output_files.h"
#include "cli/loaded_trace.h"
#include "cli/trace_args.h"
#include "writers/csv_writer.h"
#include "writers/json_writer.h"

namespace sollens::cli {

namespace {

// name.csv (with an optional comment preamble) and name.json.
bool write_both(const Table& table, const std::filesystem::path& dir, const std::string& preamble,
                std::vector<std::string>& written) {
  for (const char* ext : {".csv", ".json"}) {
    const auto path = dir / (table.name() + ext);
    std::ofstream out(path, std::ios::binary);
    if (out) {
      if (ext[1] == 'c') {
        out << preamble;
        write_csv(table, out);
      } else {
        write_json(table, out);
      }
    }
    if (!out) {
      print_error(Status(Code::output_unwritable, "cannot write " + path.string()));
      return false;
    }
    written.push_back(path.string());
  }
  return true;
}

}  // namespace

int run_cycles(const std::vector<std::string>& args) {
  std::string trace;
  CyclesRequest request;
  CyclesCliOptions cli;
  const ReadOption option =
      option_reader(args, options_in(cycles_options(), request), options_in(cycles_cli_options(), cli));
  if (!parse_trace_args("cycles", args, option, trace)) return 2;
  const std::string& out_dir = cli.out_dir;
  LoadedTrace loaded;
  if (!load_and_model(trace, {}, loaded)) return 1;
  print_warnings(loaded.session, std::cerr);
  const CyclesResult cycles = loaded.session.cycles(request);

  if (!make_output_dir(out_dir)) return 3;
  std::vector<std::string> written;
  for (const CycleSheet& sheet : cycles.sheets)
    if (!write_both(sheet.table, out_dir, sheet.preamble, written)) return 3;
  std::cout << cycles.summary << "\n";
  std::cerr << "sollens: cycles: detection " << cycles.detect_ms << " ms; wrote " << written.size()
            << " files in " << out_dir << "\n";
  return 0;
}

}  // namespace sollens::cli
