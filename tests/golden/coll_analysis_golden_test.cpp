// coll_analysis against every TraceLens reference report: the two that have the sheet
// (HTA DDP nccl_data, b200 vLLM TP8) must match it (same header, same rows in the same
// order, numbers within relative 1e-6, and here even byte for byte); the others must
// produce no rows (TraceLens then writes no sheet; PARAM DLRM worker0 has 8 NCCL
// kernels without collective args, so every one is dropped by dropna).
#include <catch2/catch.hpp>

#include <filesystem>

#include "analyses/collectives/coll_analysis.h"
#include "ingest/trace_reader.h"
#include "support/golden_fixtures.h"
#include "support/reference_csv.h"
#include "support/sheet_compare.h"
#include "writers/csv_writer.h"

namespace fs = std::filesystem;
using namespace sollens;

TEST_CASE("coll_analysis equals TraceLens's reference CSVs", "[golden]") {
  const auto pairs = test::traces_with_reports();
  REQUIRE(pairs.size() == 20);  // 17 before the three H200 PyTorch 2.11 sets
  int compared = 0;
  for (const auto& [trace, ref] : pairs) {
    INFO(trace.filename().string());
    LoadResult r = load_trace(PaddedBuffer::copy_of(test::read_text(trace)));
    REQUIRE(r.store != nullptr);
    CollAnalysisOptions tracelens_columns;
    tracelens_columns.bandwidth_columns = false;
    const Table ours = coll_analysis_table(*r.store, tracelens_columns);
    const fs::path ref_csv = ref / "coll_analysis.csv";
    if (!fs::exists(ref_csv)) {
      CHECK(ours.num_rows() == 0);
      continue;
    }
    const std::string ours_csv = to_csv(ours), ref_text = test::read_text(ref_csv);
    CHECK(test::compare_sheets(test::parse_csv(ours_csv), test::parse_csv(ref_text)) == "");
    CHECK(ours_csv == ref_text);
    ++compared;
  }
  CHECK(compared == 2);
}

namespace {

const Table load_coll_analysis(const std::string& set, const std::string& file) {
  LoadResult r = load_trace(PaddedBuffer::copy_of(test::read_text(test::kTraces / set / file)));
  REQUIRE(r.store != nullptr);
  return coll_analysis_table(*r.store);
}

double cell(const Table& t, const char* column, size_t row) {
  const Column* c = t.find(column);
  REQUIRE(c != nullptr);
  REQUIRE_FALSE(c->is_null(row));
  return c->float_at(row);
}

}  // namespace

TEST_CASE("coll_analysis bandwidth columns follow NCCL's formulas on real rows", "[golden]") {
  SECTION("b200: one _allgather_base over 8 ranks, 21.953 µs") {
    const Table t = load_coll_analysis("tracelens-b200-vllm-tp8", "eager_trace.json.gz");
    REQUIRE(t.num_rows() == 1);
    REQUIRE(t.num_columns() == 19 + 3);
    CHECK(t.column(19).name() == "Full msg size (MB)");
    // All-gather: the full message is the output, 201088 BFloat16 = 0.383544921875 MiB.
    CHECK(cell(t, "Full msg size (MB)", 0) == 0.383544921875);
    // (0.383544921875 / 1024) / (21.953 / 1e6) = 17.0617039934658 GB/s; bus = · 7/8.
    CHECK(cell(t, "algo bw (GB/s)", 0) == Approx(17.0617039934658).epsilon(1e-12));
    CHECK(cell(t, "bus bw (GB/s)", 0) == Approx(14.928990994282577).epsilon(1e-12));
  }
  SECTION("HTA DDP: all-reduce over 2 ranks, bus factor 2·(2-1)/2 = 1") {
    const Table t = load_coll_analysis("hta-a100-ddp-nccl", "nccl_data.json.gz");
    REQUIRE(t.num_rows() == 7);
    // Row 0: 2049000 Float in, dur_sum 11820.962 over 3 calls: mean 3940.3206666666665 µs,
    // (7.816314697265625 / 1024) / (3940.3206666666665 / 1e6) = 1.9371823938394679.
    CHECK(cell(t, "Full msg size (MB)", 0) == 7.816314697265625);
    CHECK(cell(t, "algo bw (GB/s)", 0) == Approx(1.9371823938394679).epsilon(1e-12));
    CHECK(cell(t, "bus bw (GB/s)", 0) == cell(t, "algo bw (GB/s)", 0));
    // Broadcast rows: bus factor 1 as well.
    CHECK(t.find("Collective name")->string_at(5) == "broadcast");
    CHECK(cell(t, "bus bw (GB/s)", 5) == cell(t, "algo bw (GB/s)", 5));
  }
}
