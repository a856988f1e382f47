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

TEST_CASE("report options with a value: one parser for the CLI and the page") {
  ReportRequest r;
  CHECK(apply_report_flag("--group-by-num-kernels", r));
  CHECK(r.group_by_num_kernels);
  // TraceLens's defaults until set.
  CHECK(r.short_kernel_threshold_us == 10);
  CHECK(r.short_kernel_histogram_bins == 100);
  CHECK_FALSE(r.topk_short_kernels);
  for (const char* flag : {"--micro-idle-thresh-us", "--short-kernel-threshold-us", "--short-kernel-histogram-bins",
                           "--topk-short-kernels"})
    CHECK(is_report_value_option(flag));
  CHECK_FALSE(is_report_value_option("--corrected"));

  CHECK(apply_report_value("--short-kernel-threshold-us", "25", r).empty());
  CHECK(r.short_kernel_threshold_us == 25);
  CHECK(apply_report_value("--short-kernel-histogram-bins", "+7", r).empty());
  CHECK(r.short_kernel_histogram_bins == 7);
  CHECK(apply_report_value("--topk-short-kernels", "-3", r).empty());
  CHECK(r.topk_short_kernels == -3);
  CHECK(apply_report_value("--micro-idle-thresh-us", "2.5", r).empty());
  CHECK(r.micro_idle_thresh_us == 2.5);

  // Refused values leave the request as it was.
  CHECK(apply_report_value("--short-kernel-threshold-us", "2.5", r).find("whole number") != std::string::npos);
  CHECK(apply_report_value("--short-kernel-threshold-us", "", r).find("whole number") != std::string::npos);
  CHECK(r.short_kernel_threshold_us == 25);
  CHECK_FALSE(apply_report_value("--short-kernel-histogram-bins", "0", r).empty());
  CHECK_FALSE(apply_report_value("--short-kernel-histogram-bins", "ten", r).empty());
  CHECK(r.short_kernel_histogram_bins == 7);
  CHECK_FALSE(apply_report_value("--topk-short-kernels", "3x", r).empty());
  CHECK(r.topk_short_kernels == -3);
  CHECK(apply_report_value("--micro-idle-thresh-us", "0", r) ==
        "--micro-idle-thresh-us needs a positive number of microseconds");
  CHECK(r.micro_idle_thresh_us == 2.5);
}
