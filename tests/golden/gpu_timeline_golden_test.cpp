// Every shared trace loads; where TraceLens wrote a report, our gpu_timeline equals
// its gpu_timeline.csv (relative 1e-6), row for row.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyses/timeline/gpu_timeline.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "support/golden_fixtures.h"
#include "support/reference_csv.h"
#include "writers/csv_writer.h"

namespace fs = std::filesystem;
using namespace sollens;

namespace {

using test::kTraces;

PaddedBuffer read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return PaddedBuffer::copy_of(ss.str());
}

bool is_trace_file(const fs::path& p) {
  const std::string n = p.filename().string();
  return n.ends_with(".json") || n.ends_with(".json.gz");
}

std::vector<fs::path> all_trace_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(kTraces))
    if (e.is_regular_file() && is_trace_file(e.path()) &&
        e.path().filename() != "execution_details.json")
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every shared trace loads without an error", "[golden]") {
  const auto traces = all_trace_files();
  REQUIRE(traces.size() >= 20);
  for (const auto& t : traces) {
    INFO(t.string());
    LoadResult r = load_trace(read_bytes(t));
    CHECK(r.error.empty());
    REQUIRE(r.store != nullptr);
    if (!r.store->metadata.execution_trace) CHECK(r.store->size() > 0);
    TraceTree tree = TraceTree::build(*r.store);
    GpuTimeline tl = compute_gpu_timeline(*r.store, tree);
    // The identity TraceLens asserts, on every trace.
    CHECK(tl.computation_us + tl.exposed_comm_us + tl.exposed_memcpy_us + tl.idle_us ==
          Approx(tl.total_us).margin(1e-6));

    // Two halves parsed at once give the same events and the same timeline.
    IngestOptions two_threads;
    two_threads.threads = 2;
    two_threads.parallel_min_bytes = 0;
    LoadResult r2 = load_trace(read_bytes(t), two_threads);
    REQUIRE(r2.store != nullptr);
    REQUIRE(r2.store->size() == r.store->size());
    for (size_t i = 0; i < r.store->size(); ++i) {
      if (r.store->name_of(i) != r2.store->name_of(i) || r.store->ts[i] != r2.store->ts[i] ||
          r.store->args_json(i) != r2.store->args_json(i)) {
        FAIL_CHECK("event " << i << " differs when parsed in two halves");
        break;
      }
    }
    CHECK(r2.store->names.size() == r.store->names.size());
    const GpuTimeline tl2 = compute_gpu_timeline(*r2.store, TraceTree::build(*r2.store));
    CHECK(tl2.busy_us == tl.busy_us);
    CHECK(tl2.total_us == tl.total_us);
  }
}

TEST_CASE("gpu_timeline equals TraceLens's gpu_timeline.csv", "[golden]") {
  size_t compared = 0;
  for (const auto& [t, ref] : test::traces_with_reports()) {
    INFO(t.string());
    LoadResult r = load_trace(read_bytes(t));
    REQUIRE(r.store != nullptr);
    TraceTree tree = TraceTree::build(*r.store);
    const auto ours = test::parse_csv(to_csv(gpu_timeline_table(compute_gpu_timeline(*r.store, tree))));
    const auto theirs = test::read_csv_file((ref / "gpu_timeline.csv").string());
    REQUIRE(ours.size() == theirs.size());
    REQUIRE(ours[0] == theirs[0]);  // header: type,time ms,percent
    for (size_t row = 1; row < theirs.size(); ++row) {
      INFO("row " << theirs[row][0]);
      REQUIRE(ours[row][0] == theirs[row][0]);
      for (size_t col = 1; col < theirs[row].size(); ++col) {
        const double a = std::stod(ours[row][col]), b = std::stod(theirs[row][col]);
        CHECK(std::fabs(a - b) <= 1e-6 * std::fabs(b) + 1e-12);
      }
    }
    ++compared;
  }
  // 20 traces carry a TraceLens report: 19 sets (the DLRM set for worker0 only; three H200 ones) and
  // vllm-decode-full's capture trace.
  CHECK(compared == 20);
}
