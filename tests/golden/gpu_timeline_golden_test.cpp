// Every shared trace loads, in one pass and in two halves alike, and its timeline holds
// TraceLens's identity. Its gpu_timeline against TraceLens's gpu_timeline.csv: the
// golden report cases (cases.tsv).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyses/timeline/gpu_timeline.h"
#include "ingest/trace_reader.h"
#include "model/trace_tree.h"
#include "support/golden_fixtures.h"

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
    Result<std::unique_ptr<EventStore>> r = load_trace(read_bytes(t));
    CHECK(r.message().empty());
    REQUIRE(r.ok());
    if (!r.value()->metadata.execution_trace) CHECK(r.value()->size() > 0);
    TraceTree tree = TraceTree::build(*r.value());
    GpuTimeline tl = compute_gpu_timeline(*r.value(), tree);
    // The identity TraceLens asserts, on every trace.
    CHECK(tl.computation_us + tl.exposed_comm_us + tl.exposed_memcpy_us + tl.idle_us ==
          Approx(tl.total_us).margin(1e-6));

    // Two halves parsed at once give the same events and the same timeline.
    IngestOptions two_threads;
    two_threads.threads = 2;
    two_threads.parallel_min_bytes = 0;
    Result<std::unique_ptr<EventStore>> r2 = load_trace(read_bytes(t), two_threads);
    REQUIRE(r2.ok());
    REQUIRE(r2.value()->size() == r.value()->size());
    for (size_t i = 0; i < r.value()->size(); ++i) {
      if (r.value()->name_of(i) != r2.value()->name_of(i) || r.value()->ts[i] != r2.value()->ts[i] ||
          r.value()->args_json(i) != r2.value()->args_json(i)) {
        FAIL_CHECK("event " << i << " differs when parsed in two halves");
        break;
      }
    }
    CHECK(r2.value()->names.size() == r.value()->names.size());
    const GpuTimeline tl2 = compute_gpu_timeline(*r2.value(), TraceTree::build(*r2.value()));
    CHECK(tl2.busy_us == tl.busy_us);
    CHECK(tl2.total_us == tl.total_us);
  }
}
