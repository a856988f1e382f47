// A comparison that reads itself (analyses/diff/run_facts.h through Session::diff): each
// run's device, wall time and GPU time with no launch in the trace, the ops that add up
// to the GPU time, and the headline by the runs' names. The traces are hand-made
// (tests/fixtures/synthetic/compare/make_unlaunched_pair.py, which works each figure).
#include <catch2/catch.hpp>

#include <string>

#include "api/compare.h"
#include "ingest/gzip.h"
#include "support/golden_fixtures.h"
#include "support/table_column.h"

using namespace sollens;

namespace {

const test::fs::path kCompare = test::fs::path(SOLLENS_FIXTURES_DIR) / "synthetic" / "compare";

Session load(const std::string& file) {
  Session session;
  REQUIRE(session.load(PaddedBuffer::copy_of(test::read_text(kCompare / file))).ok());
  return session;
}

const Table& sheet(const std::vector<Table>& tables, const std::string& name) {
  for (const Table& t : tables)
    if (t.name() == name) return t;
  FAIL("no sheet " << name);
  throw;
}

size_t row_named(const Table& t, const std::string& column, const std::string& value) {
  const Column& c = test::col(t, column);
  for (size_t r = 0; r < t.num_rows(); ++r)
    if (!c.is_null(r) && c.string_at(r) == value) return r;
  FAIL("no row " << value);
  return 0;
}

}  // namespace

TEST_CASE("diff: each run's device, wall time and GPU time with no launch in the trace", "[diff][run_facts]") {
  const Session h100 = load("h100_unlaunched.json");
  const Session mi300x = load("mi300x_launched.json");
  const DiffResult diff = Session::diff(h100.diff_run(), mi300x.diff_run(), DiffRequest{{"h100", "mi300x"}, {}});
  const Table& runs = sheet(diff.sheets, "compare_runs");
  REQUIRE(runs.num_rows() == 2);
  CHECK(test::col(runs, "run").string_at(0) == "h100");
  CHECK(test::col(runs, "role").string_at(0) == "baseline");
  CHECK(test::col(runs, "device").string_at(0) == "NVIDIA H100 80GB HBM3");
  CHECK(test::col(runs, "device").string_at(1) == "AMD Instinct MI300X");
  // h100: GPU events [100, 110] and [120, 160]: wall 160 − 100 = 60 µs, busy 10 + 40 = 50 µs,
  // GPU time 50 µs, of it 40 µs with no launch (80 %); aten::mm launched the other 10 µs.
  CHECK(test::col(runs, "wall_time").float_at(0) == Approx(0.060));
  CHECK(test::col(runs, "gpu_busy_time").float_at(0) == Approx(0.050));
  CHECK(test::col(runs, "gpu_time").float_at(0) == Approx(0.050));
  CHECK(test::col(runs, "no_launch_in_trace").float_at(0) == Approx(0.040));
  CHECK(test::col(runs, "no_launch_in_trace_pct").float_at(0) == Approx(80.0));
  CHECK(test::col(runs, "launched_by_ops").float_at(0) == Approx(0.010));
  CHECK(test::col(runs, "launched_outside_ops").float_at(0) == 0.0);
  // mi300x: one launched kernel [100, 130]: 30 µs of everything, none unlaunched.
  CHECK(test::col(runs, "wall_time").float_at(1) == Approx(0.030));
  CHECK(test::col(runs, "no_launch_in_trace").float_at(1) == 0.0);
}

TEST_CASE("diff: the op comparison counts the kernels with no launch and adds up to the GPU time", "[diff][run_facts]") {
  const Session h100 = load("h100_unlaunched.json");
  const Session mi300x = load("mi300x_launched.json");
  const DiffResult diff = Session::diff(h100.diff_run(), mi300x.diff_run(), DiffRequest{{"h100", "mi300x"}, {}});
  const Table& ops = sheet(diff.sheets, "ops_summary");
  const size_t orphan = row_named(ops, "name", kNoLaunchRow);
  CHECK(test::col(ops, "h100::total_direct_kernel_time_ms").float_at(orphan) == Approx(0.040));
  CHECK(test::col(ops, "mi300x::total_direct_kernel_time_ms").is_null(orphan));  // none in mi300x
  // The ops' rows add up to each run's GPU time: h100 10 + 40 µs, mi300x 30 µs.
  for (const auto& [run, us] : {std::pair{"h100", 50.0}, std::pair{"mi300x", 30.0}}) {
    const Column& ms = test::col(ops, std::string(run) + "::total_direct_kernel_time_ms");
    double sum = 0;
    for (size_t r = 0; r < ops.num_rows(); ++r)
      if (!ms.is_null(r)) sum += ms.float_at(r);
    CHECK(sum * 1e3 == Approx(us));
  }
  // Without the runs' ops the row is not made up: TraceLens's own gpu_timeline still
  // leaves the unlaunched kernel out (10 µs busy in h100).
  const Table& timeline = sheet(diff.sheets, "gpu_timeline");
  CHECK(test::col(timeline, "h100::time ms").float_at(row_named(timeline, "type", "busy_time")) == Approx(0.010));
}

TEST_CASE("diff: the headline names the faster run, and follows a rename", "[diff][run_facts]") {
  const Session h100 = load("h100_unlaunched.json");
  const Session mi300x = load("mi300x_launched.json");
  // Wall 60 µs → 30 µs: 100 · (30 − 60) / 60 = −50.0 %.
  DiffResult diff = Session::diff(h100.diff_run(), mi300x.diff_run(), DiffRequest{{"h100", "mi300x"}, {}});
  CHECK(diff.headline().starts_with("mi300x is 50.0 % faster than h100: 0.030 ms against 0.060 ms of wall time on the GPU"));
  const Table& verdict = sheet(diff.sheets, "compare_verdict");
  CHECK(test::col(verdict, "faster").string_at(0) == "mi300x");
  CHECK(test::col(verdict, "wall_time_change_pct").float_at(0) == Approx(-50.0));

  diff = Session::diff(h100.diff_run(), mi300x.diff_run(), DiffRequest{{"main", "pr"}, {}});
  CHECK(diff.headline().starts_with("pr is 50.0 % faster than main:"));
  // Swapped: 30 → 60 µs is +100.0 %.
  diff = Session::diff(mi300x.diff_run(), h100.diff_run(), DiffRequest{{"mi300x", "h100"}, {}});
  CHECK(diff.headline().starts_with("h100 is 100.0 % slower than mi300x:"));
}

TEST_CASE("diff: a trace without deviceProperties says its device is unknown", "[diff][run_facts]") {
  const Session bare = load("no_device.json");
  const Session mi300x = load("mi300x_launched.json");
  const DiffResult diff = Session::diff(bare.diff_run(), mi300x.diff_run(), DiffRequest{});
  const Table& runs = sheet(diff.sheets, "compare_runs");
  CHECK(test::col(runs, "run").string_at(0) == "baseline");
  CHECK(test::col(runs, "device").string_at(0) == "device unknown");
  CHECK(diff.headline().starts_with("variant is as fast as baseline: 0.030 ms against 0.030 ms"));
}

TEST_CASE("diff: a stored report names the device its trace named", "[diff][run_facts]") {
  const std::string named = R"({"metadata": {"generator": "sollens 0.1.0", "device": {"status": "identified",
    "trace_device_name": "NVIDIA H100 80GB HBM3"}}, "sheets": {"gpu_timeline": [{"type": "total_time", "time ms": 4.0}]}})";
  const std::string bare = R"({"metadata": {"generator": "sollens 0.1.0"},
    "sheets": {"gpu_timeline": [{"type": "total_time", "time ms": 5.0}]}})";
  Result<DiffRun> base = read_stored_report(named);
  Result<DiffRun> var = read_stored_report(bare);
  REQUIRE(base.ok());
  REQUIRE(var.ok());
  const DiffResult diff = Session::diff(*base, *var, DiffRequest{{"main", "pr"}, {}});
  const Table& runs = sheet(diff.sheets, "compare_runs");
  CHECK(test::col(runs, "device").string_at(0) == "NVIDIA H100 80GB HBM3");
  CHECK(test::col(runs, "device").string_at(1) == "device unknown (a stored report)");
  CHECK(test::col(runs, "no_launch_in_trace").is_null(0));  // a stored report does not know
  // 4 → 5 ms: +25.0 %.
  CHECK(diff.headline().starts_with("pr is 25.0 % slower than main: 5.000 ms against 4.000 ms"));
}

#ifdef SOLLENS_HAVE_ZLIB  // .json.gz fixtures: the wasm build reads plain JSON only
TEST_CASE("diff: a run faster on the wall but slower on the GPU says both", "[diff][run_facts]") {
  // TraceLens's gpu_timeline.csv of the bert-small pair: H100 total 3.9078 ms, busy
  // 0.30944 ms; MI300X total 3.4960 ms, busy 0.39075 ms. Wall −10.5 %, busy
  // 100 · (0.39075 − 0.30944) / 0.30944 = +26.3 %: the MI300X run idles less between
  // kernels but its kernels take longer.
  const auto load_set = [](const char* set, const char* file) {
    Session session;
    Result<Gunzipped> text = gunzip(test::read_text(test::fs::path(SOLLENS_FIXTURES_DIR) / "traces" / set / file));
    REQUIRE(text.ok());
    REQUIRE(session.load(std::move(text->data)).ok());
    return session;
  };
  const Session h100 = load_set("tracelens-h100-bert-small", "gaunernst_bert-small-uncased__1016001.json.gz");
  const Session mi300x = load_set("tracelens-mi300x-bert-small", "gaunernst_bert-small-uncased__1016001.json.gz");
  const DiffResult diff = Session::diff(h100.diff_run(), mi300x.diff_run(), DiffRequest{{"h100", "mi300x"}, {}});
  CHECK(diff.headline().starts_with("mi300x is 10.5 % faster than h100: 3.496 ms against 3.908 ms"));
  CHECK(diff.headline().find("But its GPU work is 26.3 % slower (0.391 ms against 0.309 ms of GPU busy time)") !=
        std::string::npos);
  // Runs that moved the same way on both get no such clause.
  const Session a = load("h100_unlaunched.json");
  const Session b = load("mi300x_launched.json");
  CHECK(Session::diff(a.diff_run(), b.diff_run(), DiffRequest{}).headline().find("GPU work") == std::string::npos);
}
#endif  // SOLLENS_HAVE_ZLIB
