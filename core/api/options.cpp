#include "api/options.h"

#include "analyses/roofline/device_db.h"

namespace sollens {

std::optional<CycleMode> parse_cycle_mode(std::string_view word) {
  if (word == "all") return CycleMode::kAll;
  if (word == "llm") return CycleMode::kLlm;
  if (word == "uplifter") return CycleMode::kUplifter;
  return std::nullopt;
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

std::optional<KernelOrder> parse_kernel_order(std::string_view word) {
  if (word == "stream" || word.empty()) return KernelOrder::kStartTimePerStream;
  if (word == "device") return KernelOrder::kStartTimePerDevice;
  if (word == "file") return KernelOrder::kFileOrder;
  return std::nullopt;
}

bool apply_report_flag(std::string_view flag, ReportRequest& request) {
  if (flag == "--corrected") request.corrected = true;
  else if (flag == "--include-unlinked") request.include_unlinked = true;
  else if (flag == "--no-roofline") request.no_roofline = true;
  else if (flag == "--detect-recompute") request.detect_recompute = true;
  else if (flag == "--first-occurrence-time") request.first_occurrence_time = true;
  else return false;
  return true;
}

std::vector<std::string> device_names() {
  std::vector<std::string> names;
  for (const DeviceSpec& d : device_db())
    if (d.has_peaks()) names.push_back(d.id);
  return names;
}

std::string unknown_device_error(std::string_view name) {
  if (name.empty() || find_device(name)) return "";
  return "unknown device '" + std::string(name) + "' (known: " + known_device_names() + ")";
}

}  // namespace sollens
