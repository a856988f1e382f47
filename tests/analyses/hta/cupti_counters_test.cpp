#include <catch2/catch.hpp>

#include "analyses/hta/cupti_counters.h"
#include "support/test_trace.h"

using namespace sollens;
using namespace sollens::hta;

// tests/fixtures/synthetic/hta_cupti_counters.json: a trace as PyTorch writes it with
// CUPTI's range profiler (one `cuda_profiler_range` event per kernel, named after it, the
// counter values as its args), three cudaLaunchKernel calls (two under aten::conv2d >
// aten::cudnn_convolution, one under aten::add_) and a synchronize call.
TEST_CASE("cupti counters: each range's counters with the operators of its launch", "[hta][cupti_counters]") {
  auto t = test::load_with_tree(test::fixture_text("synthetic/hta_cupti_counters.json"));
  const HtaTrace trace(*t.store);
  const Table table = cupti_counters_table(trace, t.tree);
  REQUIRE(table.num_rows() == 3);

  // Counter columns in name order after rank, name, ts, dur; operator columns last.
  REQUIRE(table.num_columns() == 11);
  CHECK(table.column(4).name() == "sm__throughput.avg.pct_of_peak_sustained_elapsed");
  CHECK(table.column(5).name() == "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum");
  CHECK(table.column(7).name() == "smsp__sass_thread_inst_executed_op_fmul_pred_on.sum");
  CHECK(table.column(8).name() == "op_stack");

  const Column& fadd = table.column(5);
  CHECK(fadd.type() == ColumnType::kInt);
  CHECK(fadd.int_at(0) == 86114304);
  CHECK(fadd.int_at(2) == 262144);
  // A counter a range lacks reads −1, as HTA fills it.
  const Column& throughput = table.column(4);
  CHECK(throughput.type() == ColumnType::kFloat);
  CHECK(throughput.float_at(1) == 12.25);
  CHECK(throughput.float_at(2) == -1);

  CHECK(table.find("name")->string_at(0).starts_with("void fft2d_r2c_32x32"));
  CHECK(table.find("ts")->float_at(1) == 400);
  CHECK(table.find("op_stack")->string_at(0) == "aten::conv2d > aten::cudnn_convolution");
  CHECK(table.find("top_level_op")->string_at(1) == "aten::conv2d");
  CHECK(table.find("bottom_level_op")->string_at(1) == "aten::cudnn_convolution");
  CHECK(table.find("top_level_op")->string_at(2) == "aten::add_");
  CHECK(table.find("bottom_level_op")->string_at(2) == "aten::add_");
}

TEST_CASE("cupti counters: ranges and launches that do not pair up get no operators", "[hta][cupti_counters]") {
  // Two ranges, one launch: HTA returns nothing for the rank; the counters are still shown.
  auto t = test::load_with_tree(R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 20},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 5, "dur": 5, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_profiler_range", "name": "gemm", "pid": 0, "tid": 0, "ts": 100, "dur": 10, "args": {"c.sum": 7}},
    {"ph": "X", "cat": "cuda_profiler_range", "name": "gemm", "pid": 0, "tid": 0, "ts": 110, "dur": 10, "args": {"c.sum": 8}}
  ]})");
  const HtaTrace trace(*t.store);
  const Table table = cupti_counters_table(trace, t.tree);
  REQUIRE(table.num_rows() == 2);
  CHECK(table.find("c.sum")->int_at(1) == 8);
  CHECK(table.find("top_level_op")->is_null(0));
}

TEST_CASE("cupti counters: a trace without ranges gives an empty sheet", "[hta][cupti_counters]") {
  auto t = test::load_with_tree(R"({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 5, "dur": 5, "args": {"correlation": 1}}
  ]})");
  const HtaTrace trace(*t.store);
  const Table table = cupti_counters_table(trace, t.tree);
  CHECK(table.num_rows() == 0);
  CHECK(table.find("op_stack") != nullptr);
}
