#include <catch2/catch.hpp>

#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/ops_sheets.h"
#include "analyses/ops/recompute.h"
#include "analyses/ops/trace_builder.h"
#include "analyses/timeline/gpu_timeline.h"
#include "ingest/trace_reader.h"
#include "report/report.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

namespace {

// One activation-checkpointed step: forward aten::mm (kernel 100-110) and aten::relu
// (112-114); backward recomputes them under checkpoint.py's recompute_fn (mm 200-210,
// relu 211-213), then runs aten::mm's backward mm (220-240). Kernel times:
//   non-recompute: mm 10 + 20 = 30, relu 2;  recompute: mm 10, relu 2.
std::string checkpointed_step() {
  const std::string mm = R"("Input Dims":[[4,8],[8,16]],"Input type":["float","float"],"Input Strides":[[8,1],[16,1]],"Concrete Inputs":["",""])";
  test::TraceBuilder t;
  t.cpu_op("aten::mm", 10, 5, mm).launch(11, "gemm", 100, 10)
      .cpu_op("aten::relu", 20, 5).launch(21, "relu_k", 112, 2)
      .python("torch/utils/checkpoint.py(1125): recompute_fn", 50, 30)
      .cpu_op("aten::mm", 52, 5, mm).launch(53, "gemm", 200, 10)
      .cpu_op("aten::relu", 60, 5).launch(61, "relu_k", 211, 2)
      .cpu_op("aten::mm", 90, 5, mm).launch(91, "gemm", 220, 20);
  return t.json();
}

struct Modeled {
  std::unique_ptr<EventStore> store;
  TraceTree tree;
};

Modeled model(const std::string& json, bool include_python) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  Modeled m{std::move(r.value()), {}};
  TreeOptions options;
  options.include_python = include_python;
  m.tree = TraceTree::build(*m.store, options);
  return m;
}

}  // namespace

TEST_CASE("recompute: ops under checkpoint.py recompute_fn frames, only with python frames") {
  const Modeled with = model(checkpointed_step(), true);
  LauncherTable lt = find_kernel_launchers(*with.store, with.tree);
  mark_recompute_launchers(lt, find_recompute_events(*with.store, with.tree));
  REQUIRE(lt.launchers.size() == 5);
  std::vector<bool> flags;
  for (const auto& l : lt.launchers) flags.push_back(l.is_recompute);
  CHECK(flags == std::vector<bool>{false, false, true, true, false});

  const Modeled without = model(checkpointed_step(), false);
  for (uint8_t f : find_recompute_events(*without.store, without.tree)) CHECK(f == 0);
}

TEST_CASE("recompute: ops sheets split by is_recompute after their key columns") {
  const Modeled m = model(checkpointed_step(), true);
  LauncherTable lt = find_kernel_launchers(*m.store, m.tree);
  mark_recompute_launchers(lt, find_recompute_events(*m.store, m.tree));

  // ops_summary: (mm, False) 30, (mm, True) 10, (relu, False) 2, (relu, True) 2 µs.
  const Table summary = ops_summary_table(*m.store, lt, {.recompute_column = true});
  REQUIRE(summary.num_rows() == 4);
  CHECK(summary.column(1).name() == "is_recompute");
  CHECK(col(summary, "name").string_at(0) == "aten::mm");
  CHECK(col(summary, "is_recompute").int_at(0) == 0);
  CHECK(col(summary, "total_direct_kernel_time_sum").float_at(0) == Approx(30));
  CHECK(col(summary, "Count").int_at(0) == 2);
  CHECK(col(summary, "name").string_at(1) == "aten::mm");
  CHECK(col(summary, "is_recompute").int_at(1) == 1);
  CHECK(col(summary, "total_direct_kernel_time_sum").float_at(1) == Approx(10));

  // ops_unique_args: is_recompute after the 9 key columns, part of the key.
  const Table unique = ops_unique_args_table(*m.store, lt, ProcessThreadNames(*m.store), {.recompute_column = true});
  REQUIRE(unique.num_rows() == 4);
  CHECK(unique.column(9).name() == "is_recompute");
  CHECK(unique.column(10).name() == "operation_count");

  // Without the column the same launchers group as before: mm 40 µs, 3 calls.
  const Table plain = ops_summary_table(*m.store, lt);
  REQUIRE(plain.num_rows() == 2);
  CHECK(col(plain, "total_direct_kernel_time_sum").float_at(0) == Approx(40));
  CHECK(col(plain, "Count").int_at(0) == 3);
}

TEST_CASE("recompute: gpu_timeline once for the other GPU events, once for the recompute ones") {
  const Modeled m = model(checkpointed_step(), true);
  ReportOptions options;
  options.detect_recompute = true;
  const Report report = build_report(*m.store, m.tree, options);
  const Table* timeline = report.find("gpu_timeline");
  REQUIRE(timeline);
  REQUIRE(timeline->num_rows() == 16);
  CHECK(timeline->column(3).name() == "is_recompute");
  // Non-recompute kernels [100,110], [112,114], [220,240]: busy 32, total 140, idle 108.
  CHECK(col(*timeline, "type").string_at(3) == "busy_time");
  CHECK(col(*timeline, "time ms").float_at(3) == Approx(0.032));
  CHECK(col(*timeline, "time ms").float_at(5) == Approx(0.140));
  CHECK(col(*timeline, "is_recompute").int_at(5) == 0);
  // Recompute kernels [200,210], [211,213]: busy 12, total 13, idle 1.
  CHECK(col(*timeline, "time ms").float_at(8 + 3) == Approx(0.012));
  CHECK(col(*timeline, "time ms").float_at(8 + 4) == Approx(0.001));
  CHECK(col(*timeline, "time ms").float_at(8 + 5) == Approx(0.013));
  CHECK(col(*timeline, "percent").float_at(8 + 3) == Approx(12.0 / 13 * 100));
  CHECK(col(*timeline, "is_recompute").int_at(8 + 5) == 1);

  const Table* by_category = report.find("ops_summary_by_category");
  REQUIRE(by_category);
  CHECK(by_category->column(1).name() == "is_recompute");
  // Whole-trace timeline kept for the other sheets: busy 44 of 140 µs.
  CHECK(report.timeline.busy_us == Approx(44));
}

TEST_CASE("recompute: perf-model sheets group by is_recompute, shown after the params") {
  const Modeled m = model(checkpointed_step(), true);
  ReportOptions options;
  options.detect_recompute = true;
  const Report report = build_report(*m.store, m.tree, options);
  const Table* gemm = report.find("GEMM");
  REQUIRE(gemm);
  // The three aten::mm calls have equal params: (False) 10 + 20 µs, (True) 10 µs.
  REQUIRE(gemm->num_rows() == 2);
  size_t at = 0;
  while (gemm->column(at).name() != "is_recompute") ++at;
  CHECK(gemm->column(at - 1).name().rfind("param: ", 0) == 0);
  CHECK(gemm->column(at + 1).name() == "GFLOPS_first");
  CHECK(col(*gemm, "is_recompute").int_at(0) == 0);
  CHECK(col(*gemm, "Kernel Time (µs)_sum").float_at(0) == Approx(30));
  CHECK(col(*gemm, "name_count").int_at(0) == 2);
  CHECK(col(*gemm, "is_recompute").int_at(1) == 1);
  CHECK(col(*gemm, "Kernel Time (µs)_sum").float_at(1) == Approx(10));

  const Report plain = build_report(*m.store, m.tree, {});
  REQUIRE(plain.find("GEMM"));
  CHECK(plain.find("GEMM")->num_rows() == 1);
}

TEST_CASE("recompute: unified_perf_summary groups by is_recompute, after the 9 key columns") {
  const Modeled m = model(checkpointed_step(), true);
  ReportOptions options;
  options.detect_recompute = true;
  const Report report = build_report(*m.store, m.tree, options);
  const Table* unified = report.find("unified_perf_summary");
  REQUIRE(unified);
  CHECK(unified->column(8).name() == "Concrete Inputs");
  CHECK(unified->column(9).name() == "is_recompute");
  CHECK(unified->column(10).name() == "ex_UID");
  // mm (False) 30 µs, mm (True) 10, relu (False) 2, relu (True) 2.
  REQUIRE(unified->num_rows() == 4);
  CHECK(col(*unified, "is_recompute").int_at(0) == 0);
  CHECK(col(*unified, "Kernel Time (µs)_sum").float_at(0) == Approx(30));
  CHECK(col(*unified, "is_recompute").int_at(1) == 1);
  CHECK(col(*unified, "Kernel Time (µs)_sum").float_at(1) == Approx(10));
}
