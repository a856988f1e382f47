#pragma once
// The options only the command line has (output folders, files beside the trace, how
// the trace is read), generated as the requests' are (api/options.h) from the
// *_flags.def lists: one struct and one OptionSpec table per command.
#include <span>

#include "api/option_table.h"
#include "api/options.h"

namespace sollens {

// `sollens report`: the REPORT_CLI_OPTION lines of report_flags.def.
struct ReportCliOptions {
#define REPORT_CLI_OPTION(flag, field, kind, default_value, value_name, help) kind::Value field = default_value;
#include "api/report_flags.def"
};

// `sollens cycles`: the CYCLES_CLI_OPTION lines of cycles_flags.def.
struct CyclesCliOptions {
#define CYCLES_CLI_OPTION(flag, field, kind, default_value, value_name, help) kind::Value field = default_value;
#include "api/cycles_flags.def"
};

struct InfoCliOptions {
#define INFO_OPTION(flag, field, kind, default_value, value_name, help) kind::Value field = default_value;
#include "api/info_flags.def"
};

struct SolCliOptions {
#define SOL_OPTION(flag, field, kind, default_value, value_name, help) kind::Value field = default_value;
#include "api/sol_flags.def"
};

struct SolarCliOptions {
#define SOLAR_OPTION(flag, field, kind, default_value, value_name, help) kind::Value field = default_value;
#include "api/solar_flags.def"
};

struct DiffCliOptions {
#define DIFF_OPTION(flag, field, kind, default_value, value_name, help) kind::Value field = default_value;
#include "api/diff_flags.def"
};

std::span<const OptionSpec<ReportCliOptions>> report_cli_options();
std::span<const OptionSpec<CyclesCliOptions>> cycles_cli_options();
std::span<const OptionSpec<InfoCliOptions>> info_cli_options();
std::span<const OptionSpec<SolCliOptions>> sol_cli_options();
std::span<const OptionSpec<SolarCliOptions>> solar_cli_options();
std::span<const OptionSpec<DiffCliOptions>> diff_cli_options();

// Each command's options as its --help lists them, in the order of its .def (request
// and command-line options together).
std::string report_options_usage();
std::string cycles_options_usage();
std::string info_options_usage();
std::string sol_options_usage();
std::string solar_options_usage();
std::string diff_options_usage();

}  // namespace sollens
