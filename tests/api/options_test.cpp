// The option words shared by the CLI and the page: the tables generated from the
// api/*_flags.def lists, their parse, their refusals and their help.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <sstream>

#include "api/command_options.h"
#include "api/hta_request.h"
#include "api/options.h"

using namespace sollens;

namespace {

// Reads `words` as one command line of `specs`' options: "" when every word was
// taken, else the first refusal's message, or "not mine: WORD".
template <typename Options>
std::string read_all(std::span<const OptionSpec<Options>> specs, const std::vector<std::string>& words,
                     Options& options) {
  for (size_t i = 0; i < words.size(); ++i) {
    Status problem;
    const OptionRead read = read_option(specs, words, i, options, problem);
    if (read == OptionRead::kRefused) return problem.message();
    if (read == OptionRead::kNotMine) return "not mine: " + words[i];
  }
  return "";
}

// The flags of the `macro(...)` lines of an api/*_flags.def file, read from its text.
std::vector<std::string> def_flags(const std::string& file, const std::string& macro) {
  std::ifstream in(std::string(SOLLENS_FIXTURES_DIR) + "/../../core/api/" + file);
  std::stringstream text;
  text << in.rdbuf();
  const std::string source = text.str();
  const std::regex line("^" + macro + "\\(\"(--[a-z-]+)\"", std::regex::ECMAScript | std::regex::multiline);
  std::vector<std::string> flags;
  for (std::sregex_iterator it(source.begin(), source.end(), line), end; it != end; ++it)
    flags.push_back((*it)[1]);
  return flags;
}

// The option heads ("  --flag" at a line's start) of a help text, in order.
std::vector<std::string> usage_flags(const std::string& usage) {
  const std::regex head("^  (--[a-z-]+)", std::regex::ECMAScript | std::regex::multiline);
  std::vector<std::string> flags;
  for (std::sregex_iterator it(usage.begin(), usage.end(), head), end; it != end; ++it)
    flags.push_back((*it)[1]);
  return flags;
}

}  // namespace

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

TEST_CASE("device names: known in any case, or empty; else the known names listed") {
  CHECK(check_device_name("").ok());
  CHECK(check_device_name("h100_sxm5_80gb").ok());
  const Status problem = check_device_name("no-such-gpu");
  CHECK(problem.code() == Code::unknown_device);
  CHECK(problem.message().find("unknown device 'no-such-gpu'") == 0);
  CHECK(problem.message().find("H100_SXM5_80GB") != std::string::npos);
  const std::vector<std::string> names = device_names();
  CHECK(std::find(names.begin(), names.end(), "H100_SXM5_80GB") != names.end());
  for (const std::string& name : names) {
    INFO(name);
    CHECK(check_device_name(name).ok());
  }
}

TEST_CASE("report switches: each sets its field, and nothing else") {
  ReportRequest r;
  CHECK(read_all(report_options(), {"--corrected", "--include-unlinked", "--no-roofline"}, r).empty());
  CHECK(r.corrected);
  CHECK(r.include_unlinked);
  CHECK(r.no_roofline);
  CHECK_FALSE(r.detect_recompute);
  CHECK_FALSE(r.group_by_num_kernels);
  CHECK(read_all(report_options(), {"--detect-recompute", "--first-occurrence-time", "--group-by-num-kernels"}, r)
            .empty());
  CHECK(r.detect_recompute);
  CHECK(r.first_occurrence_time);
  CHECK(r.group_by_num_kernels);
  // The command line's own options are not the request's.
  CHECK(read_all(report_options(), {"--out", "x"}, r) == "not mine: --out");
  CHECK(read_all(report_options(), {"--no-sol"}, r) == "not mine: --no-sol");
}

TEST_CASE("report options with a value: TraceLens's defaults until set, then the value read") {
  ReportRequest r;
  CHECK(r.short_kernel_threshold_us == 10);
  CHECK(r.short_kernel_histogram_bins == 100);
  CHECK_FALSE(r.topk_short_kernels);
  CHECK_FALSE(r.micro_idle_thresh_us);
  CHECK(r.sol_efficiency == 1.0);
  CHECK(r.device_name.empty());
  CHECK(read_all(report_options(),
                 {"--short-kernel-threshold-us", "25", "--short-kernel-histogram-bins", "+7", "--topk-short-kernels",
                  "-3", "--micro-idle-thresh-us", "2.5", "--efficiency", "0.8", "--device", "h100_sxm5_80gb"},
                 r)
            .empty());
  CHECK(r.short_kernel_threshold_us == 25);
  CHECK(r.short_kernel_histogram_bins == 7);
  CHECK(r.topk_short_kernels == -3);
  CHECK(r.micro_idle_thresh_us == 2.5);
  CHECK(r.sol_efficiency == 0.8);
  CHECK(r.device_name == "h100_sxm5_80gb");
}

TEST_CASE("report values refused with the command line's messages, the request unchanged") {
  ReportRequest r;
  r.short_kernel_threshold_us = 25;
  CHECK(read_all(report_options(), {"--short-kernel-threshold-us", "2.5"}, r) ==
        "--short-kernel-threshold-us needs a whole number of microseconds");
  CHECK(read_all(report_options(), {"--short-kernel-threshold-us"}, r) ==
        "--short-kernel-threshold-us needs a whole number of microseconds");
  CHECK(r.short_kernel_threshold_us == 25);
  CHECK(read_all(report_options(), {"--short-kernel-histogram-bins", "0"}, r) ==
        "--short-kernel-histogram-bins needs a number of bins from 1 to 1000000");
  CHECK(read_all(report_options(), {"--short-kernel-histogram-bins", "1000001"}, r) ==
        "--short-kernel-histogram-bins needs a number of bins from 1 to 1000000");
  CHECK(r.short_kernel_histogram_bins == 100);
  CHECK(read_all(report_options(), {"--topk-short-kernels", "3x"}, r) ==
        "--topk-short-kernels needs a whole number of rows");
  CHECK_FALSE(r.topk_short_kernels);
  CHECK(read_all(report_options(), {"--micro-idle-thresh-us", "0"}, r) ==
        "--micro-idle-thresh-us needs a positive number of microseconds");
  CHECK_FALSE(r.micro_idle_thresh_us);
  CHECK(read_all(report_options(), {"--efficiency", "1.5"}, r) == "--efficiency needs a factor in (0, 1], e.g. 0.8");
  CHECK(read_all(report_options(), {"--efficiency", ""}, r) == "--efficiency needs a factor in (0, 1], e.g. 0.8");
  CHECK(r.sol_efficiency == 1.0);
  const std::string unknown = read_all(report_options(), {"--device", "no-such-gpu"}, r);
  CHECK(unknown.starts_with("unknown device 'no-such-gpu' for --device (known, case-insensitive: "));
  CHECK(unknown.find("MI300X") != std::string::npos);
  CHECK(read_all(report_options(), {"--device"}, r).starts_with("--device needs a GPU name (known, case-insensitive: "));
  CHECK(r.device_name.empty());
}

TEST_CASE("the page's report words: the request options only, read by the same table") {
  ReportRequest r;
  CHECK(read_report_words({"--device", "MI300X", "--corrected", "--detect-recompute"}, r).ok());
  CHECK(r.device_name == "MI300X");
  CHECK(r.corrected);
  CHECK(r.detect_recompute);
  CHECK_FALSE(r.sol_sheets);  // the page shows SOL in its own view
  const Status not_the_page = read_report_words({"--no-xlsx"}, r);
  CHECK(not_the_page.code() == Code::unknown_option);
  CHECK(not_the_page.message() == "unknown report option '--no-xlsx'");
  const Status bad_rows = read_report_words({"--topk-short-kernels", "many"}, r);
  CHECK(bad_rows.code() == Code::bad_option_value);
  CHECK(bad_rows.message() == "--topk-short-kernels needs a whole number of rows");
  CHECK(read_report_words({"--device", "no-such-gpu"}, r).code() == Code::unknown_device);
  CHECK(read_report_words({"--device"}, r).code() == Code::bad_option_value);
  CHECK(option_page_name("--include-unlinked") == "includeUnlinked");
  CHECK(option_page_name("--device") == "device");
  CHECK(option_page_name("--short-kernel-histogram-bins") == "shortKernelHistogramBins");
}

TEST_CASE("the command line's report options: files, loading and the SOL sheets") {
  ReportCliOptions cli;
  CHECK(cli.out_dir == "sollens-report");
  CHECK(cli.link == LinkMode::kAuto);
  CHECK(read_all(report_cli_options(),
                 {"--out", "o", "--no-json", "--no-xlsx", "--no-sol", "--include-python", "--strip-sglang-suffixes",
                  "--link", "correlation", "--max-memory", "1.5", "--capture", "c.json", "--rank-summary", "r.csv",
                  "--counters-trace", "q.json", "--critical-path-trace", "p.json"},
                 cli)
            .empty());
  CHECK(cli.out_dir == "o");
  CHECK((cli.no_json && cli.no_xlsx && cli.no_sol && cli.include_python && cli.strip_sglang_suffixes));
  CHECK(cli.link == LinkMode::kCorrelation);
  CHECK(cli.max_memory_bytes == 1500000);
  CHECK(cli.capture == "c.json");
  CHECK(cli.rank_summary == "r.csv");
  CHECK(cli.counters_trace == "q.json");
  CHECK(cli.critical_path_trace == "p.json");
  CHECK(read_all(report_cli_options(), {"--counters-trace"}, cli) == "--counters-trace needs a file");
  CHECK(read_all(report_cli_options(), {"--critical-path-trace"}, cli) == "--critical-path-trace needs a file");
  CHECK(read_all(report_cli_options(), {"--out"}, cli) == "--out needs a directory");
  CHECK(read_all(report_cli_options(), {"--capture"}, cli) == "--capture needs the graph-capture trace");
  CHECK(read_all(report_cli_options(), {"--rank-summary"}, cli) == "--rank-summary needs a file");
  CHECK(read_all(report_cli_options(), {"--max-memory", "0"}, cli) == "--max-memory needs a positive number of megabytes");
  CHECK(read_all(report_cli_options(), {"--link", "hta"}, cli) == "--link is flows, correlation or auto, not 'hta'");
  CHECK(read_all(report_cli_options(), {"--link"}, cli) == "--link is flows, correlation or auto");
  CHECK(cli.link == LinkMode::kCorrelation);
}

TEST_CASE("the other commands' options: values, choices and their refusals") {
  CyclesRequest cycles;
  CHECK(read_all(cycles_options(), {"--mode", "llm", "--order", "device"}, cycles).empty());
  CHECK(cycles.mode == CycleMode::kLlm);
  CHECK(cycles.order == KernelOrder::kStartTimePerDevice);
  CHECK(read_all(cycles_options(), {"--mode", "fast"}, cycles) == "--mode is all, llm or uplifter, not 'fast'");
  CHECK(read_all(cycles_options(), {"--order", ""}, cycles) == "--order is device, stream or file, not ''");
  CHECK(read_all(cycles_options(), {"--mode"}, cycles) == "--mode needs a value");
  CyclesCliOptions cycles_cli;
  CHECK(read_all(cycles_cli_options(), {"--out"}, cycles_cli) == "--out needs a value");

  SolCliOptions sol;
  CHECK(read_all(sol_cli_options(), {"--efficiency", "0.5", "--out", "s"}, sol).empty());
  CHECK(sol.efficiency == 0.5);
  CHECK(sol.out_dir == "s");
  CHECK(read_all(sol_cli_options(), {"--capture"}, sol) == "--capture needs the graph-capture trace");

  SolarCliOptions solar;
  CHECK(read_all(solar_cli_options(), {"--kineto", "k.json"}, solar).empty());
  CHECK(solar.kineto == "k.json");
  CHECK(read_all(solar_cli_options(), {"--kineto"}, solar) == "--kineto needs a value");

  InfoCliOptions info;
  CHECK(read_all(info_cli_options(), {"--link", "flows"}, info).empty());
  CHECK(info.link == LinkMode::kFlows);

  DiffCliOptions diff;
  CHECK(diff.tags.baseline == "baseline");
  CHECK(read_all(diff_cli_options(), {"--names", "a,b", "--fail-if", "total time > +5%", "--fail-if",
                                      "op aten::mm time > +10%"},
                 diff)
            .empty());
  CHECK(diff.tags.baseline == "a");
  CHECK(diff.tags.variant == "b");
  REQUIRE(diff.gates.size() == 2);
  CHECK(diff.gates[1].text == "op aten::mm time > +10%");
  for (const char* names : {"a", "a,a", ",b", "a,", "a,b,c", "a::x,b"}) {
    INFO(names);
    CHECK(read_all(diff_cli_options(), {"--names", names}, diff) ==
          "--names takes two different names without '::', as A,B");
  }
  CHECK(diff.tags.variant == "b");
  CHECK_FALSE(read_all(diff_cli_options(), {"--fail-if", "nonsense"}, diff).empty());
  CHECK(diff.gates.size() == 2);
}

TEST_CASE("each command's help lists every line of its .def, in order, with defaults") {
  const std::pair<std::string, std::string> macros[] = {{"report_flags.def", "REPORT_(?:CLI_)?OPTION"},
                                                        {"cycles_flags.def", "CYCLES_(?:CLI_)?OPTION"},
                                                        {"info_flags.def", "INFO_OPTION"},
                                                        {"sol_flags.def", "SOL_OPTION"},
                                                        {"solar_flags.def", "SOLAR_OPTION"},
                                                        {"diff_flags.def", "DIFF_OPTION"}};
  const std::string usages[] = {report_options_usage(), cycles_options_usage(), info_options_usage(),
                                sol_options_usage(),    solar_options_usage(),  diff_options_usage()};
  for (size_t k = 0; k < std::size(macros); ++k) {
    INFO(macros[k].first);
    const std::vector<std::string> flags = def_flags(macros[k].first, macros[k].second);
    CHECK(flags.size() >= 2);
    CHECK(usage_flags(usages[k]) == flags);
  }
  const std::string report = report_options_usage();
  CHECK(report.find("  --short-kernel-histogram-bins N\n") != std::string::npos);
  CHECK(report.find("(default: 100)") != std::string::npos);
  CHECK(report.find("  --out DIR\n") != std::string::npos);
  CHECK(report.find("sollens-report)\n") != std::string::npos);  // the default, wrapped onto its own line
  CHECK(diff_options_usage().find("(default: baseline,variant)") != std::string::npos);
  for (const std::string& usage : usages) {
    std::istringstream lines(usage);
    for (std::string line; std::getline(lines, line);) {
      INFO(line);
      CHECK(line.size() <= 80);
    }
  }
}

TEST_CASE("HTA options: HTA's defaults until set, then the values the HTA sheets read") {
  ReportRequest r;
  hta::HtaOptions defaults;
  const hta::HtaOptions unset = hta_options(r);
  CHECK(unset.enabled);
  CHECK(unset.consecutive_kernel_delay_us == defaults.consecutive_kernel_delay_us);
  CHECK(unset.kernel_duration_ratio == defaults.kernel_duration_ratio);
  CHECK(unset.num_kernels == defaults.num_kernels);
  CHECK(unset.runtime_cutoff_us == defaults.runtime_cutoff_us);
  CHECK(unset.launch_delay_cutoff_us == defaults.launch_delay_cutoff_us);
  CHECK(unset.max_queue_length == defaults.max_queue_length);
  CHECK(unset.time_series == defaults.time_series);
  CHECK(unset.kernels_with_user_annotations == defaults.kernels_with_user_annotations);
  CHECK(unset.sequences_operator == defaults.sequences_operator);
  CHECK(unset.min_pattern_len == defaults.min_pattern_len);
  CHECK(unset.top_k == defaults.top_k);
  CHECK(unset.critical_path == defaults.critical_path);
  CHECK(unset.critical_path_annotation == defaults.critical_path_annotation);
  CHECK(unset.critical_path_instance == defaults.critical_path_instance);

  CHECK(read_all(report_options(),
                 {"--no-hta", "--hta-kernel-gap-us", "12.5", "--hta-kernel-share", "0.5", "--hta-top-kernels", "4",
                  "--hta-runtime-cutoff-us", "0", "--hta-launch-delay-cutoff-us", "250", "--hta-max-queue-length",
                  "+64", "--hta-time-series", "--hta-kernels-with-annotations", "--hta-sequences", "aten::linear", "--hta-sequence-min-length", "2",
                  "--hta-sequence-top-k", "7", "--critical-path", "ProfilerStep:3"},
                 r)
            .empty());
  const hta::HtaOptions set = hta_options(r);
  CHECK_FALSE(set.enabled);
  CHECK(set.consecutive_kernel_delay_us == 12.5);
  CHECK(set.kernel_duration_ratio == 0.5);
  CHECK(set.num_kernels == 4);
  CHECK(set.runtime_cutoff_us == 0);
  CHECK(set.launch_delay_cutoff_us == 250);
  CHECK(set.max_queue_length == 64);
  CHECK(set.time_series);
  CHECK(set.kernels_with_user_annotations);
  CHECK(set.sequences_operator == "aten::linear");
  CHECK(set.min_pattern_len == 2);
  CHECK(set.top_k == 7);
  CHECK(set.critical_path);
  CHECK(set.critical_path_annotation == "ProfilerStep");
  CHECK(set.critical_path_instance == 3);
}

TEST_CASE("--critical-path: an annotation and its index, the whole trace, or none") {
  auto scope = [](const std::string& word) {
    ReportRequest r;
    const std::string problem = read_all(report_options(), {"--critical-path", word}, r);
    REQUIRE(problem.empty());
    return hta_options(r);
  };
  const hta::HtaOptions step = scope("ProfilerStep:1");
  CHECK((step.critical_path && step.critical_path_annotation == "ProfilerStep" && step.critical_path_instance == 1));
  const hta::HtaOptions plain = scope("forward");
  CHECK((plain.critical_path_annotation == "forward" && plain.critical_path_instance < 0));
  // "::" belongs to an operator's name; a single colon before digits is the index.
  const hta::HtaOptions op = scope("aten::mm");
  CHECK((op.critical_path_annotation == "aten::mm" && op.critical_path_instance < 0));
  const hta::HtaOptions op_index = scope("aten::mm:0");
  CHECK((op_index.critical_path_annotation == "aten::mm" && op_index.critical_path_instance == 0));
  for (const std::string whole : {"all", ""}) {
    const hta::HtaOptions all = scope(whole);
    CHECK((all.critical_path && all.critical_path_annotation.empty()));
  }
  CHECK_FALSE(scope("none").critical_path);

  ReportRequest r;
  const std::string needs = "--critical-path needs ANNOTATION[:INDEX], INDEX a whole number >= 0 (or all, or none)";
  for (const std::string bad : {"ProfilerStep:", "ProfilerStep:-1", "ProfilerStep:+1", "ProfilerStep:x", ":2",
                                "ProfilerStep:1.5"}) {
    INFO(bad);
    CHECK(read_all(report_options(), {"--critical-path", bad}, r) == needs + ", not '" + bad + "'");
  }
  CHECK(read_all(report_options(), {"--critical-path"}, r) == needs);
  CHECK(CriticalPathChoice::text(r.critical_path) == "ProfilerStep");  // unchanged by the refusals
  CHECK(CriticalPathChoice::text(CriticalPathScope{false, "", -1}) == "none");
  CHECK(CriticalPathChoice::text(CriticalPathScope{true, "", -1}) == "all");
  CHECK(CriticalPathChoice::text(CriticalPathScope{true, "ProfilerStep", 2}) == "ProfilerStep:2");
}

TEST_CASE("HTA option values refused with what each needs, the request unchanged") {
  ReportRequest r;
  for (const char* flag : {"--hta-kernel-gap-us", "--hta-runtime-cutoff-us", "--hta-launch-delay-cutoff-us"}) {
    INFO(flag);
    for (const char* bad : {"-1", "ten", "", "inf"})
      CHECK(read_all(report_options(), {flag, bad}, r) == std::string(flag) + " needs a number of microseconds >= 0");
    CHECK(read_all(report_options(), {flag}, r) == std::string(flag) + " needs a number of microseconds >= 0");
  }
  for (const char* flag :
       {"--hta-top-kernels", "--hta-max-queue-length", "--hta-sequence-min-length", "--hta-sequence-top-k"}) {
    INFO(flag);
    for (const char* bad : {"0", "-3", "2.5", "x"})
      CHECK(read_all(report_options(), {flag, bad}, r) == std::string(flag) + " needs a whole number >= 1");
  }
  for (const char* bad : {"0", "1.5", "-0.2"})
    CHECK(read_all(report_options(), {"--hta-kernel-share", bad}, r) ==
          "--hta-kernel-share needs a share in (0, 1], e.g. 0.8");
  CHECK(read_all(report_options(), {"--hta-sequences", ""}, r) ==
        "--hta-sequences needs an operator name, e.g. aten::linear");
  CHECK(read_all(report_options(), {"--hta-sequences"}, r) ==
        "--hta-sequences needs an operator name, e.g. aten::linear");
  const hta::HtaOptions unchanged = hta_options(r), defaults;
  CHECK(unchanged.consecutive_kernel_delay_us == defaults.consecutive_kernel_delay_us);
  CHECK(unchanged.num_kernels == defaults.num_kernels);
  CHECK(unchanged.max_queue_length == defaults.max_queue_length);
  CHECK(unchanged.kernel_duration_ratio == defaults.kernel_duration_ratio);
  CHECK(unchanged.sequences_operator.empty());
  // The page reads the same words.
  CHECK(read_report_words({"--no-hta", "--critical-path", "none"}, r).ok());
  CHECK(r.no_hta);
  CHECK(option_page_name("--hta-kernel-gap-us") == "htaKernelGapUs");
}

TEST_CASE("report help: the HTA options with HTA's names and defaults") {
  const std::string report = report_options_usage();
  CHECK(report.find("  --no-hta\n") != std::string::npos);
  CHECK(report.find("  --hta-kernel-gap-us US\n") != std::string::npos);
  CHECK(report.find("consecutive_kernel_delay") != std::string::npos);
  CHECK(report.find("(default: 30)") != std::string::npos);
  CHECK(report.find("  --critical-path ANNOTATION[:INDEX]\n") != std::string::npos);
  CHECK(report.find("ProfilerStep)\n") != std::string::npos);  // the default, wrapped
  // The launch-delay cutoff's entry, however its help wraps, ends with its default.
  const size_t delay = report.find("  --hta-launch-delay-cutoff-us US\n");
  const size_t next = report.find("  --hta-max-queue-length", delay);
  REQUIRE(delay != std::string::npos);
  REQUIRE(next != std::string::npos);
  std::string entry;  // its words joined by single spaces
  for (char c : report.substr(delay, next - delay)) {
    if (c == '\n') c = ' ';
    if (c != ' ' || (!entry.empty() && entry.back() != ' ')) entry += c;
  }
  CHECK(entry.find("(default: 100)") != std::string::npos);
  CHECK(report.find("(default: 1024)") != std::string::npos);
}
