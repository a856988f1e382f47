// The option words shared by the CLI and the page.
#include <catch2/catch.hpp>

#include <algorithm>

#include "api/options.h"

using namespace sollens;

TEST_CASE("cycle mode words") {
  CHECK(parse_cycle_mode("all") == CycleMode::kAll);
  CHECK(parse_cycle_mode("llm") == CycleMode::kLlm);
  CHECK(parse_cycle_mode("uplifter") == CycleMode::kUplifter);
  CHECK_FALSE(cycle_options({CycleMode::kUplifter}).structure);
  CHECK(cycle_options({CycleMode::kLlm}).llm);
  CHECK_FALSE(parse_cycle_mode("LLM"));
  CHECK_FALSE(parse_cycle_mode(""));
}

TEST_CASE("kernel order words; no word is the core's default, per device and stream") {
  CHECK(parse_kernel_order("stream") == KernelOrder::kStartTimePerStream);
  CHECK(parse_kernel_order("device") == KernelOrder::kStartTimePerDevice);
  CHECK(parse_kernel_order("file") == KernelOrder::kFileOrder);
  CHECK(parse_kernel_order("") == CycleOptions{}.order);
  CHECK(CyclesRequest{}.order == CycleOptions{}.order);
  CHECK_FALSE(parse_kernel_order("time"));
}

TEST_CASE("report flags") {
  ReportRequest r;
  CHECK(apply_report_flag("--corrected", r));
  CHECK(apply_report_flag("--include-unlinked", r));
  CHECK(apply_report_flag("--no-roofline", r));
  CHECK(r.corrected);
  CHECK(r.include_unlinked);
  CHECK(r.no_roofline);
  CHECK_FALSE(apply_report_flag("--out", r));
}

TEST_CASE("device names: known in any case, or empty; else the known names listed") {
  CHECK(unknown_device_error("").empty());
  CHECK(unknown_device_error("h100_sxm5_80gb").empty());
  const std::string problem = unknown_device_error("no-such-gpu");
  CHECK(problem.find("unknown device 'no-such-gpu'") == 0);
  CHECK(problem.find("H100_SXM5_80GB") != std::string::npos);
  const std::vector<std::string> names = device_names();
  CHECK(std::find(names.begin(), names.end(), "H100_SXM5_80GB") != names.end());
  for (const std::string& name : names) {
    INFO(name);
    CHECK(unknown_device_error(name).empty());
  }
}
