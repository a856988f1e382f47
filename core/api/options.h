#pragma once
// The options a front end passes as words (the CLI's flags, the page's selectors), read
// in one place so that both mean the same by them and default alike: the request
// structs are generated from the *_flags.def lists, one line per option.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analyses/cycles/cycle_sheets.h"
#include "analyses/cycles/kernel_sequence.h"
#include "api/option_table.h"

namespace sollens {

// What a report is computed with: a field per REPORT_OPTION line of report_flags.def.
struct ReportRequest {
#define REPORT_OPTION(flag, field, kind, default_value, value_name, help) kind::Value field = default_value;
#include "api/report_flags.def"
  // Not an option word: whether the front end wants the speed-of-light sheets
  // (analyses/sol) after TraceLens's, for the report's GPU (none without a GPU with
  // peaks or with no_roofline). `sollens report` asks for them unless --no-sol; the page
  // shows SOL in a view of its own and leaves them out.
  bool sol_sheets = false;
};

// What the cycles analysis is run with: a field per CYCLES_OPTION line of cycles_flags.def.
struct CyclesRequest {
#define CYCLES_OPTION(flag, field, kind, default_value, value_name, help) kind::Value field = default_value;
#include "api/cycles_flags.def"
};

// The options of report_flags.def's REPORT_OPTION lines, for read_option and options_usage.
std::span<const OptionSpec<ReportRequest>> report_options();
std::span<const OptionSpec<CyclesRequest>> cycles_options();

// The page's words for a report (flags and their values, as on the command line) read
// into `request`: ok when every word is a report option, else why not (unknown_option,
// or the option's refusal: bad_option_value, unknown_device).
Status read_report_words(const std::vector<std::string>& words, ReportRequest& request);

// The detection options and the tables a mode asks for.
CycleOptions cycle_options(const CyclesRequest& request);
CycleSheetMode cycle_sheet_mode(CycleMode mode);
// ok when `name` is a known device database name (any case) or empty, else
// unknown_device, its message listing the known names.
Status check_device_name(std::string_view name);
// The device database's ids a report can be computed for (those with peaks, as
// check_device_name accepts them), sorted, for a device selector.
std::vector<std::string> device_names();

}  // namespace sollens
