// Session: loading (errors, progress, cancel), the report as build_report makes it,
// and the cycles options.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>

#include "api/api_test_traces.h"
#include "api/session.h"
#include "support/golden_fixtures.h"
#include "support/reference_csv.h"
#include "writers/csv_writer.h"

using namespace sollens;

TEST_CASE("Session: a failed load leaves it empty, with the reason") {
  Session session;
  const Result<LoadStats> loaded = test::load_text(session, "this is not JSON");
  CHECK_FALSE(loaded.ok());
  CHECK(loaded.code() == Code::not_json);
  CHECK_FALSE(loaded.message().empty());
  CHECK_FALSE(session.loaded());
  CHECK(test::load_text(session, "").code() == Code::file_empty);
  CHECK(test::load_text(session, R"({"schemaVersion": 1})").code() == Code::not_a_trace);
  CHECK_FALSE(session.loaded());
}

TEST_CASE("Session: a failed load drops the trace loaded before") {
  Session session;
  REQUIRE(test::load_text(session, test::one_gemm_trace()).ok());
  REQUIRE(session.loaded());
  CHECK_FALSE(test::load_text(session, "this is not JSON").ok());
  CHECK_FALSE(session.loaded());
}

TEST_CASE("Session: progress reports the events read; returning false cancels") {
  const int repeats = 1000;  // 10000 events, ~1 MB: several parse windows
  const std::string text = test::repeating_kernels_trace(repeats);
  Session session;
  size_t calls = 0, last_events = 0, last_bytes = 0;
  LoadOptions options;
  options.progress = [&](size_t bytes, size_t events) {
    ++calls;
    last_bytes = bytes;
    last_events = events;
    return true;
  };
  REQUIRE(test::load_text(session, text, options).ok());
  CHECK(calls > 1);
  CHECK(last_events <= 10 * repeats);
  CHECK(last_bytes <= text.size());
  CHECK(session.event_count() == 10 * repeats);

  options.progress = [](size_t, size_t) { return false; };
  const Result<LoadStats> cancelled = test::load_text(session, text, options);
  CHECK(cancelled.code() == Code::cancelled);
  CHECK_FALSE(cancelled.ok());
  CHECK_FALSE(session.loaded());
}

TEST_CASE("Session: the report is build_report's, sheet for sheet") {
  Session session;
  REQUIRE(test::load_text(session, test::one_gemm_trace()).ok());
  for (bool corrected : {false, true}) {
    ReportRequest request;
    request.corrected = corrected;
    request.include_unlinked = true;
    ReportOptions options;
    options.perf.corrected = corrected;
    options.timeline.include_unlinked = true;
    options.device = session.identify_device().roofline_spec();
    options.sol.for_verdict = true;  // as the session asks: the verdict's steps
    const Report ours = session.report(request);
    const Report direct = build_report(session.store(), session.tree(), options);
    REQUIRE(ours.sheets.size() == direct.sheets.size());
    for (size_t i = 0; i < ours.sheets.size(); ++i) {
      INFO(direct.sheets[i].name());
      CHECK(to_csv(ours.sheets[i]) == to_csv(direct.sheets[i]));
    }
  }
}

TEST_CASE("Session: the short-kernel and num_kernels options reach build_report") {
  Session session;
  REQUIRE(test::load_text(session, test::one_gemm_trace()).ok());
  ReportRequest request;
  request.group_by_num_kernels = true;
  request.short_kernel_threshold_us = 20;
  request.short_kernel_histogram_bins = 3;
  request.topk_short_kernels = 0;
  ReportOptions options;
  options.perf.group_by_num_kernels = true;
  options.short_kernels = {.threshold_us = 20, .histogram_bins = 3, .topk = 0};
  options.device = session.identify_device().roofline_spec();
  options.sol.for_verdict = true;  // as the session asks: the verdict's steps
  const Report ours = session.report(request);
  const Report direct = build_report(session.store(), session.tree(), options);
  REQUIRE(ours.sheets.size() == direct.sheets.size());
  for (size_t i = 0; i < ours.sheets.size(); ++i) {
    INFO(direct.sheets[i].name());
    CHECK(to_csv(ours.sheets[i]) == to_csv(direct.sheets[i]));
  }
  // The 10.125 µs gemm is short under 20 µs: 3 bins, one count.
  const Table* histogram = ours.find("short_kernel_histogram");
  REQUIRE(histogram);
  CHECK(histogram->num_rows() == 3);
  REQUIRE(ours.find("ops_unique_args"));
  CHECK(ours.find("ops_unique_args")->column(9).name() == "num_kernels");
}

TEST_CASE("Session: cycles of a 10-kernel step in every order and mode") {
  Session session;
  REQUIRE(test::load_text(session, test::repeating_kernels_trace(20)).ok());
  for (const char* order : {"stream", "device", "file"}) {
    INFO(order);
    const CyclesResult all = session.cycles({CycleMode::kAll, *parse_kernel_order(order)});
    CHECK(all.report.kernels == 200);  // 20 steps of 10
    CHECK(all.report.patterns() == 1);
    REQUIRE_FALSE(all.sheets.empty());
    CHECK(all.sheets[0].table.name() == "cycles");
    CHECK(all.summary == cycles_summary(all.report));
  }
  const CyclesResult llm = session.cycles({CycleMode::kLlm, KernelOrder::kStartTimePerStream});
  REQUIRE_FALSE(llm.sheets.empty());
  CHECK(llm.sheets[0].table.name() == "cycles_llm");
}

TEST_CASE("Session: the default request's cycles are the verdict's, and the same as a detection of their own") {
  Session session;
  REQUIRE(test::load_text(session, test::repeating_kernels_trace(20)).ok());
  (void)session.report();  // its verdict detects the default cycles
  const CycleReport fresh = analyze_cycles(session.store(), cycle_options({}));
  const CyclesResult usual = session.cycles();
  CHECK(usual.report.kernels == fresh.kernels);
  CHECK(usual.report.patterns() == fresh.patterns());
  CHECK(usual.summary == cycles_summary(fresh));
  const std::vector<CycleSheet> expected = cycle_sheets(fresh, CycleSheetMode::kAll);
  REQUIRE(usual.sheets.size() == expected.size());
  for (size_t k = 0; k < expected.size(); ++k) CHECK(to_csv(usual.sheets[k].table) == to_csv(expected[k].table));
  // Another order is detected for itself.
  CHECK(session.cycle_report({CycleMode::kAll, KernelOrder::kFileOrder}).kernels == 200);
}

#ifdef SOLLENS_HAVE_ZLIB
TEST_CASE("Session: the bundled sample's report has TraceLens's sheets and GPU time") {
  const auto dir = std::filesystem::path(SOLLENS_FIXTURES_DIR) / "traces" / "tracelens-h100-bert-small";
  const auto ref = dir / "tracelens-report";
  std::filesystem::path trace;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().string().ends_with(".json.gz")) trace = e.path();
  Session session;
  REQUIRE(session.load(PaddedBuffer::copy_of(test::read_text(trace))).ok());
  const Report report = session.report();
  std::set<std::string> ours;
  for (const Table& t : report.sheets) ours.insert(t.name());
  for (const auto& e : std::filesystem::directory_iterator(ref)) {
    INFO(e.path().filename().string());
    CHECK(ours.count(e.path().stem().string()) == 1);
  }
  // gpu_timeline.csv's total_time row, in ms.
  double total_ms = -1;
  for (const auto& row : test::read_csv_file((ref / "gpu_timeline.csv").string()))
    if (row[0] == "total_time") total_ms = std::stod(row[1]);
  CHECK(session.gpu_timeline().total_us / 1e3 == Approx(total_ms).epsilon(1e-9));
  CHECK(report.timeline.total_us / 1e3 == Approx(total_ms).epsilon(1e-9));
}
#endif
