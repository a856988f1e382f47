// The perf-model sheets computed for the trace's own GPU, on the traces of the golden
// report cases (cases.tsv): TraceLens's columns unchanged, the roofline columns where
// they belong; and the corrected option worked out by hand. The sheets without a
// device against the reference reports: the golden report cases.
#include <catch2/catch.hpp>

#include <filesystem>

#include "analyses/perf/model_registry.h"
#include "support/golden_cases.h"
#include "support/reference_csv.h"
#include "support/sheet_compare.h"
#include "writers/csv_writer.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

using test::kTraces;
using test::read_text;

// Where the roofline columns must be: the device is known and some row has a Compute
// Spec every GPU of the database has a dense peak for, FLOPs and bytes.
bool needs_roofline(const Table& t) {
  const Column* spec = t.find("Compute Spec");
  const Column* gflops = t.find("GFLOPS_first");
  const Column* mb = t.find("Data Moved (MB)_first");
  for (size_t r = 0; r < t.num_rows(); ++r) {
    const std::string& sp = spec->string_at(r);
    const bool common = sp == "matrix_bf16" || sp == "matrix_fp16" || sp == "matrix_fp32" || sp == "vector_fp32" ||
                        sp == "vector_bf16" || sp == "vector_fp16";
    if (common && !gflops->is_null(r) && gflops->float_at(r) > 0 && !mb->is_null(r)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("perf sheets with the trace's device: TraceLens's columns unchanged, roofline columns after Compute Spec", "[golden]") {
  int with_device = 0, with_roofline = 0;
  for (const test::GoldenCase& c : test::read_golden_cases()) {
    const fs::path trace = kTraces / c.trace, ref = kTraces / c.reference;
    const test::GoldenReport ours = test::report_of(trace, {}, true);
    REQUIRE(ours.loaded);
    const DeviceSpec* device = ours.device;
    with_device += device != nullptr;
    for (const std::string& sheet : perf::perf_sheet_names()) {
      if (!ours.sheet(sheet)) continue;
      const Table& t = *ours.sheet(sheet);
      INFO(trace.filename().string() << ": " << t.name());
      const fs::path ref_csv = ref / (t.name() + ".csv");
      if (fs::exists(ref_csv))
        CHECK(test::compare_sheets(
                  test::parse_csv(to_csv(test::without_columns_named(test::without_columns_named(t, "(corrected)"), "Roofline"))),
                  test::parse_csv(read_text(ref_csv)), {.rel = c.tolerance}) == "");
      const Column* first = t.find("Roofline Time (µs)_first");
      if (!device || !needs_roofline(t)) {
        if (!device) CHECK(first == nullptr);
        continue;
      }
      REQUIRE(first != nullptr);
      ++with_roofline;
      size_t spec = 0;
      while (t.column(spec).name() != "Compute Spec") ++spec;
      const char* kAfter[] = {"Roofline Time (µs)_first", "Roofline Bound_first", "Pct Roofline_mean",
                              "Pct Roofline_median", "Pct Roofline_std", "Pct Roofline_min", "Pct Roofline_max"};
      for (size_t k = 0; k < 7; ++k) CHECK(t.column(spec + 1 + k).name() == kAfter[k]);
    }
  }
  // All 20 reports are on a GPU the database has peaks for (MI250, MI210 and V100 SXM2
  // from their datasheets, deviceDB/README.md); 61 of their sheets get roofline columns.
  CHECK(with_device == 20);
  CHECK(with_roofline == 61);
}

TEST_CASE("perf sheets: the corrected option swaps the corrected values into the default columns", "[golden]") {
  const fs::path trace = kTraces / "tracelens-h100-qwen1.5-0.5b" / "Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  auto sdpa = [&](bool corrected) {
    ReportOptions options;
    options.perf.corrected = corrected;
    const test::GoldenReport ours = test::report_of(trace, options);
    return ours.sheet("SDPA_fwd") ? *ours.sheet("SDPA_fwd") : Table("none", TableKind::kPerfModel);
  };
  const Table tl = sdpa(false), fixed = sdpa(true);
  REQUIRE(tl.num_rows() == 1);
  REQUIRE(fixed.num_rows() == 1);
  // causal (16, 16 heads, 559 tokens, d 64): TraceLens 4·16·16·559²·64 / 2; exact pairs 559·560/2.
  CHECK(tl.find("GFLOPS_first")->float_at(0) == Approx(10.239377408));
  CHECK(tl.find("GFLOPS_first (corrected)")->float_at(0) == Approx(4.0 * 16 * 16 * 64 * (559.0 * 560 / 2) / 1e9));
  CHECK(fixed.find("GFLOPS_first")->float_at(0) == tl.find("GFLOPS_first (corrected)")->float_at(0));
  CHECK(fixed.find("GFLOPS_first (TraceLens)")->float_at(0) == tl.find("GFLOPS_first")->float_at(0));
}
