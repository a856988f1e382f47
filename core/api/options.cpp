#include "api/options.h"

#include <charconv>
#include <cstdlib>
#include <string>

#include "devices/device_db.h"

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
  else if (flag == "--group-by-num-kernels") request.group_by_num_kernels = true;
  else return false;
  return true;
}

namespace {

// A whole decimal integer (sign allowed), as TraceLens's argparse type=int reads one.
std::optional<int64_t> parse_integer(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_number(std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || *end != '\0') return std::nullopt;
  return v;
}

}  // namespace

bool is_report_value_option(std::string_view flag) {
  return flag == "--micro-idle-thresh-us" || flag == "--short-kernel-threshold-us" ||
         flag == "--short-kernel-histogram-bins" || flag == "--topk-short-kernels";
}

std::string apply_report_value(std::string_view flag, std::string_view value, ReportRequest& request) {
  const std::string name(flag);
  if (flag == "--micro-idle-thresh-us") {
    const auto us = parse_number(value);
    if (!us || !(*us > 0)) return name + " needs a positive number of microseconds";
    request.micro_idle_thresh_us = *us;
  } else if (flag == "--short-kernel-threshold-us") {
    const auto us = parse_integer(value);
    if (!us) return name + " needs a whole number of microseconds";
    request.short_kernel_threshold_us = *us;
  } else if (flag == "--short-kernel-histogram-bins") {
    const auto bins = parse_integer(value);
    if (!bins || *bins < 1 || *bins > 1000000) return name + " needs a number of bins from 1 to 1000000";
    request.short_kernel_histogram_bins = *bins;
  } else if (flag == "--topk-short-kernels") {
    const auto rows = parse_integer(value);
    if (!rows) return name + " needs a whole number of rows";
    request.topk_short_kernels = *rows;
  } else {
    return "unknown report option " + name;
  }
  return "";
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
