// A trace without flow events, linked by correlation id: the timeline and the ops
// sheets see its GPU events (tests/fixtures/synthetic/correlation_only_launches.json).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/ops_sheets.h"
#include "analyses/timeline/gpu_timeline.h"
#include "ingest/trace_reader.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

namespace {

std::unique_ptr<EventStore> load_fixture(const std::string& relative_path) {
  std::ifstream in(std::filesystem::path(SOLLENS_FIXTURES_DIR) / relative_path, std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(ss.str()));
  REQUIRE(r.ok());
  return std::move(r.value());
}

std::unique_ptr<EventStore> load_synthetic() {
  return load_fixture("synthetic/correlation_only_launches.json");
}

TraceTree tree_of(const EventStore& s, LinkMode mode) {
  TreeOptions o;
  o.link = mode;
  return TraceTree::build(s, o);
}

}  // namespace

// GPU events (µs) and their launches' correlation ids:
//   gemm        [100, 110]  compute   11
//   add_kernel  [115, 120]  compute   12
//   Memcpy HtoD [118, 124]  memcpy    13
//   nccl...     [122, 130]  comm      14
//   orphan      [140, 144]  compute   99, no launch: unlinked, left out
// computation = 10 + 5 = 15; comm = 8; memcpy = 6
// busy = |[100,110] ∪ [115,130]| = 10 + 15 = 25; total = 130 - 100 = 30; idle = 5
// exposed comm = [122,130] minus computation = 8
// exposed memcpy = [118,124] minus [115,120] minus [122,130] = [120,122] = 2
// 15 + 8 + 2 + 5 = 30 = total.
TEST_CASE("correlation-linked trace: the GPU timeline by hand") {
  const auto s = load_synthetic();
  const GpuTimeline t = compute_gpu_timeline(*s, tree_of(*s, LinkMode::kAuto));
  CHECK(t.events == 4);
  CHECK(t.computation_us == 15);
  CHECK(t.total_comm_us == 8);
  CHECK(t.total_memcpy_us == 6);
  CHECK(t.busy_us == 25);
  CHECK(t.total_us == 30);
  CHECK(t.idle_us == 5);
  CHECK(t.exposed_comm_us == 8);
  CHECK(t.exposed_memcpy_us == 2);
  const Table table = gpu_timeline_table(t);
  CHECK(col(table, "percent").float_at(0) == Approx(50.0));  // computation 15 / 30

  // TraceLens's rule on the same trace: nothing linked, a timeline of zeros.
  const GpuTimeline strict = compute_gpu_timeline(*s, tree_of(*s, LinkMode::kFlows));
  CHECK(strict.events == 0);
  CHECK(strict.total_us == 0);
}

// Kernel time of an op = the union of its GPU events (collective kernels excluded,
// as TraceLens does): aten::mm 10; aten::add |[115,120] ∪ [118,124]| = 9;
// nccl:all_reduce launches only an NCCL kernel, so it has no row. Sum 19.
TEST_CASE("correlation-linked trace: ops_summary kernel times by hand") {
  const auto s = load_synthetic();
  const TraceTree tree = tree_of(*s, LinkMode::kAuto);
  const Table summary = ops_summary_table(*s, find_kernel_launchers(*s, tree));
  REQUIRE(summary.num_rows() == 2);
  CHECK(col(summary, "name").string_at(0) == "aten::mm");
  CHECK(col(summary, "total_direct_kernel_time_sum").float_at(0) == 10);
  CHECK(col(summary, "name").string_at(1) == "aten::add");
  CHECK(col(summary, "total_direct_kernel_time_sum").float_at(1) == 9);
  CHECK(col(summary, "Percentage (%)").float_at(0) == Approx(10.0 / 19 * 100));

  const TraceTree strict = tree_of(*s, LinkMode::kFlows);
  CHECK(ops_summary_table(*s, find_kernel_launchers(*s, strict)).num_rows() == 0);
}

#ifdef SOLLENS_HAVE_ZLIB  // a .json.gz fixture: the wasm build reads plain JSON only
TEST_CASE("hta-sampled-rank1: the timeline of every GPU event once linked by correlation id") {
  const auto s = load_fixture("traces/hta-sampled-rank1/sampled_rank-1.json.gz");
  const GpuTimeline t = compute_gpu_timeline(*s, tree_of(*s, LinkMode::kAuto));
  // Computed once in Python from the file's 1154 kernel / gpu_memcpy / gpu_memset
  // events (integer µs): the union of their [ts, ts + dur] is 580050, first start to
  // last end 1231186; the union of the 40 memcpys 16473; of the 10 kernels whose
  // name contains "nccl" 379053.
  CHECK(t.events == 1154);
  CHECK(t.busy_us == 580050);
  CHECK(t.total_us == 1231186);
  CHECK(t.idle_us == 1231186 - 580050);
  CHECK(t.total_memcpy_us == 16473);
  CHECK(t.total_comm_us == 379053);
  CHECK(compute_gpu_timeline(*s, tree_of(*s, LinkMode::kFlows)).events == 0);
}
#endif  // SOLLENS_HAVE_ZLIB
