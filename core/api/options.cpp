#include "api/options.h"

#include "devices/device_db.h"

namespace sollens {

namespace {

const OptionSpec<ReportRequest> kReportOptions[] = {
#define REPORT_OPTION(flag, field, kind, default_value, value_name, help) \
  SOLLENS_OPTION_SPEC(ReportRequest, flag, field, kind, value_name, help),
#include "api/report_flags.def"
};

const OptionSpec<CyclesRequest> kCyclesOptions[] = {
#define CYCLES_OPTION(flag, field, kind, default_value, value_name, help) \
  SOLLENS_OPTION_SPEC(CyclesRequest, flag, field, kind, value_name, help),
#include "api/cycles_flags.def"
};

}  // namespace

std::span<const OptionSpec<ReportRequest>> report_options() { return kReportOptions; }
std::span<const OptionSpec<CyclesRequest>> cycles_options() { return kCyclesOptions; }

Status read_report_words(const std::vector<std::string>& words, ReportRequest& request) {
  for (size_t i = 0; i < words.size(); ++i) {
    Status problem;
    const OptionRead read = read_option(report_options(), words, i, request, problem);
    if (read == OptionRead::kRefused) return problem;
    if (read == OptionRead::kNotMine) return Status(Code::unknown_option, "unknown report option '" + words[i] + "'");
  }
  return {};
}

CycleOptions cycle_options(const CyclesRequest& request) {
  CycleOptions options;
  options.order = request.order;
  options.llm = request.mode == CycleMode::kLlm;
  options.structure = request.mode != CycleMode::kUplifter;  // uplifter: its pipeline exactly
  return options;
}

CycleSheetMode cycle_sheet_mode(CycleMode mode) {
  return mode == CycleMode::kLlm ? CycleSheetMode::kLlm : CycleSheetMode::kAll;
}

std::vector<std::string> device_names() {
  std::vector<std::string> names;
  for (const DeviceSpec& d : device_db())
    if (d.has_peaks()) names.push_back(d.id);
  return names;
}

Status check_device_name(std::string_view name) {
  if (name.empty() || find_device(name)) return {};
  return Status(Code::unknown_device, "unknown device '" + std::string(name) + "' (known: " + known_device_names() + ")");
}

}  // namespace sollens
