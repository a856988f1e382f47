// Every perf-model sheet (GEMM, SDPA_*, CONV_*, UnaryElementwise, BinaryElementwise,
// Normalization, Reduce_*) against each TraceLens reference report: a reference sheet
// must be produced, a sheet TraceLens does not write must not be, and each is compared
// by test::compare_sheets with the rules of shared/tools/compare_report.py made
// stricter: the same header in the same order, the same rows in the same order
// (TraceLens sorts these sheets deterministically: Kernel Time sum desc, UID asc),
// numbers within relative 1e-6. Our extra "(corrected)" columns are dropped first
// (compare_report.py ignores columns the reference lacks).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "analyses/perf/perf_sheets.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "support/golden_fixtures.h"
#include "support/reference_csv.h"
#include "support/sheet_compare.h"
#include "writers/csv_writer.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

using test::kTraces;
using test::read_text;
using test::traces_with_reports;

const char* kPerfSheets[] = {"GEMM",          "SDPA_fwd",          "SDPA_bwd",         "CONV_fwd",
                             "CONV_bwd",      "UnaryElementwise",  "BinaryElementwise", "Normalization",
                             "Reduce_fwd",    "Reduce_bwd"};


// The table without the columns TraceLens does not have ("… (corrected)").
Table without_corrected(const Table& t) {
  Table out(t.name());
  for (size_t c = 0; c < t.num_columns(); ++c)
    if (t.column(c).name().find("(corrected)") == std::string::npos) out.add_column("", ColumnType::kString) = t.column(c);
  return out;
}

}  // namespace

TEST_CASE("perf-model sheets equal TraceLens's reference CSVs", "[golden]") {
  const auto pairs = traces_with_reports();
  REQUIRE(pairs.size() == 13);
  int compared = 0;
  for (const auto& [trace, ref] : pairs) {
    LoadResult r = load_trace(PaddedBuffer::copy_of(read_text(trace)));
    REQUIRE(r.store != nullptr);
    const TraceTree tree = TraceTree::build(*r.store);
    std::map<std::string, Table> ours;
    for (Table& t : perf_model_tables(*r.store, tree)) ours.emplace(t.name(), without_corrected(t));
    for (const char* sheet : kPerfSheets) {
      INFO(trace.filename().string() << ": " << sheet);
      const fs::path ref_csv = ref / (std::string(sheet) + ".csv");
      auto it = ours.find(sheet);
      if (!fs::exists(ref_csv)) {
        CHECK(it == ours.end());
        continue;
      }
      REQUIRE(it != ours.end());
      CHECK(test::compare_sheets(test::parse_csv(to_csv(it->second)), test::parse_csv(read_text(ref_csv)), 1e-6) == "");
      ++compared;
    }
  }
  CHECK(compared == 39);  // reference perf-model sheets across the 13 reports
}

TEST_CASE("perf sheets: the corrected option swaps the corrected values into the default columns", "[golden]") {
  const fs::path trace = kTraces / "tracelens-h100-qwen1.5-0.5b" / "Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  LoadResult r = load_trace(PaddedBuffer::copy_of(read_text(trace)));
  REQUIRE(r.store != nullptr);
  const TraceTree tree = TraceTree::build(*r.store);
  auto sdpa = [&](bool corrected) {
    for (Table& t : perf_model_tables(*r.store, tree, {corrected}))
      if (t.name() == "SDPA_fwd") return t;
    return Table("none");
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
