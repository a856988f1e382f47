// coll_analysis's NCCL bandwidth columns on real rows, worked out by hand. Its
// TraceLens columns are compared with the reference reports by the golden report cases
// (cases.tsv: HTA DDP nccl_data and b200 vLLM TP8 have the sheet; the others have no
// rows, PARAM DLRM worker0's 8 NCCL kernels without collective args all dropped by dropna).
#include <catch2/catch.hpp>

#include <filesystem>

#include "analyses/collectives/coll_analysis.h"
#include "ingest/trace_reader.h"
#include "support/golden_fixtures.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

const Table load_coll_analysis(const std::string& set, const std::string& file) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(test::read_text(test::kTraces / set / file)));
  REQUIRE(r.ok());
  return coll_analysis_table(*r.value());
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
