#include "api/command_options.h"

namespace sollens {

namespace {

const OptionSpec<ReportCliOptions> kReportCliOptions[] = {
#define REPORT_CLI_OPTION(flag, field, kind, default_value, value_name, help) \
  SOLLENS_OPTION_SPEC(ReportCliOptions, flag, field, kind, value_name, help),
#include "api/report_flags.def"
};

const OptionSpec<CyclesCliOptions> kCyclesCliOptions[] = {
#define CYCLES_CLI_OPTION(flag, field, kind, default_value, value_name, help) \
  SOLLENS_OPTION_SPEC(CyclesCliOptions, flag, field, kind, value_name, help),
#include "api/cycles_flags.def"
};

const OptionSpec<InfoCliOptions> kInfoCliOptions[] = {
#define INFO_OPTION(flag, field, kind, default_value, value_name, help) \
  SOLLENS_OPTION_SPEC(InfoCliOptions, flag, field, kind, value_name, help),
#include "api/info_flags.def"
};

const OptionSpec<SolCliOptions> kSolCliOptions[] = {
#define SOL_OPTION(flag, field, kind, default_value, value_name, help) \
  SOLLENS_OPTION_SPEC(SolCliOptions, flag, field, kind, value_name, help),
#include "api/sol_flags.def"
};

const OptionSpec<SolarCliOptions> kSolarCliOptions[] = {
#define SOLAR_OPTION(flag, field, kind, default_value, value_name, help) \
  SOLLENS_OPTION_SPEC(SolarCliOptions, flag, field, kind, value_name, help),
#include "api/solar_flags.def"
};

const OptionSpec<DiffCliOptions> kDiffCliOptions[] = {
#define DIFF_OPTION(flag, field, kind, default_value, value_name, help) \
  SOLLENS_OPTION_SPEC(DiffCliOptions, flag, field, kind, value_name, help),
#include "api/diff_flags.def"
};

}  // namespace

std::span<const OptionSpec<ReportCliOptions>> report_cli_options() { return kReportCliOptions; }
std::span<const OptionSpec<CyclesCliOptions>> cycles_cli_options() { return kCyclesCliOptions; }
std::span<const OptionSpec<InfoCliOptions>> info_cli_options() { return kInfoCliOptions; }
std::span<const OptionSpec<SolCliOptions>> sol_cli_options() { return kSolCliOptions; }
std::span<const OptionSpec<SolarCliOptions>> solar_cli_options() { return kSolarCliOptions; }
std::span<const OptionSpec<DiffCliOptions>> diff_cli_options() { return kDiffCliOptions; }

// One .def line's help, its default read from a default-made `Options`.
#define SOLLENS_OPTION_USAGE(Options, flag, field, kind, value_name, help) \
  option_usage(flag, kind::kTakesValue ? value_name : "", help, kind::text(Options{}.field))

std::string report_options_usage() {
  std::string out;
#define REPORT_OPTION(flag, field, kind, default_value, value_name, help) \
  out += SOLLENS_OPTION_USAGE(ReportRequest, flag, field, kind, value_name, help);
#define REPORT_CLI_OPTION(flag, field, kind, default_value, value_name, help) \
  out += SOLLENS_OPTION_USAGE(ReportCliOptions, flag, field, kind, value_name, help);
#include "api/report_flags.def"
  return out;
}

std::string cycles_options_usage() {
  std::string out;
#define CYCLES_OPTION(flag, field, kind, default_value, value_name, help) \
  out += SOLLENS_OPTION_USAGE(CyclesRequest, flag, field, kind, value_name, help);
#define CYCLES_CLI_OPTION(flag, field, kind, default_value, value_name, help) \
  out += SOLLENS_OPTION_USAGE(CyclesCliOptions, flag, field, kind, value_name, help);
#include "api/cycles_flags.def"
  return out;
}

std::string info_options_usage() { return options_usage(info_cli_options()); }
std::string sol_options_usage() { return options_usage(sol_cli_options()); }
std::string solar_options_usage() { return options_usage(solar_cli_options()); }
std::string diff_options_usage() { return options_usage(diff_cli_options()); }

}  // namespace sollens
