// unified_perf_summary's collection rules (tracelens-semantics.md §2.9) on a hand-made
// trace: the outermost modeled op is collected, not its unmodeled parent; a leaf cpu_op
// without a model is collected; a parent whose descendant is modeled is recursed into,
// and its own kernel becomes a synthetic op numbered after the trace's events.
#include <catch2/catch.hpp>

#include "analyses/ops/kernel_launchers.h"
#include "analyses/ops/trace_builder.h"
#include "analyses/perf/unified_perf_summary.h"
#include "ingest/trace_reader.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

namespace {

// unified_perf_summary of a hand-made trace, and how many events the trace has (the
// synthetic ops' ex_UIDs are numbered from there).
struct Summary {
  size_t events;
  Table table;
};

Summary unified_summary(const std::string& json) {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(json));
  REQUIRE(r.ok());
  const TraceTree tree = TraceTree::build(*r.value());
  const LauncherTable launchers = find_kernel_launchers(*r.value(), tree);
  const ModeledOps ops = evaluate_modeled_ops(*r.value(), tree);
  return {r.value()->size(), unified_perf_summary_table(*r.value(), tree, launchers, ops)};
}

}  // namespace

TEST_CASE("unified_perf_summary: outermost model, leaf, synthetic op", "[perf]") {
  const std::string addmm = R"("Input Dims":[[64],[32,128],[128,64],[],[]],"Input type":["float","float","float","Scalar","Scalar"],"Input Strides":[[1],[128,1],[1,128],[],[]],"Concrete Inputs":["","","","1","1"])";
  const std::string mean = R"("Input Dims":[[8,8]],"Input type":["float"],"Input Strides":[[8,1]],"Concrete Inputs":["",""])";
  test::TraceBuilder t;
  // Rows: 0 aten::linear, 1 aten::addmm + 2..5 its launch; 6 aten::foo + 7..10;
  // 11 aten::mse_loss + 12..15 (its own kernel mse_k); 16 aten::mean + 17..20. 21 events.
  t.cpu_op("aten::linear", 10, 20).cpu_op("aten::addmm", 11, 5, addmm).launch(12, "gemm_k", 100, 4)
      .cpu_op("aten::foo", 40, 5).launch(41, "void at::native::vectorized_elementwise_kernel<foo>", 110, 2)
      .cpu_op("aten::mse_loss", 60, 20).launch(61, "mse_k", 120, 3)
      .cpu_op("aten::mean", 65, 5, mean).launch(66, "reduce_k", 130, 1);
  const auto [events, u] = unified_summary(t.json());
  REQUIRE(events == 21);
  REQUIRE(u.num_rows() == 4);
  // By Kernel Time sum: addmm 4 µs, the synthetic mse_k 3, foo 2, mean 1.
  CHECK(col(u, "name").string_at(0) == "aten::addmm");
  CHECK(col(u, "ex_UID").int_at(0) == 1);
  CHECK(col(u, "op category").string_at(0) == "GEMM");
  CHECK(col(u, "has_perf_model").bool_at(0));
  // 2·M·N·K + M·N = 2·32·64·128 + 32·64 = 526336 FLOPs
  CHECK(col(u, "GFLOPS").float_at(0) == Approx(526336e-9));
  CHECK(col(u, "name").string_at(1) == "aten::mse_loss->mse_k (Synthetic Op)");
  CHECK(col(u, "ex_UID").int_at(1) == 21);
  CHECK(col(u, "op category").string_at(1) == "other");
  CHECK(col(u, "total_duration_us").float_at(1) == Approx(20));  // the launcher's duration
  CHECK_FALSE(col(u, "has_perf_model").bool_at(1));
  CHECK(col(u, "GFLOPS").is_null(1));
  CHECK(col(u, "name").string_at(2) == "aten::foo");
  CHECK(col(u, "op category").string_at(2) == "elementwise");  // kernel-name fallback
  CHECK(col(u, "name").string_at(3) == "aten::mean");
  CHECK(col(u, "op category").string_at(3) == "reduce");
  CHECK(col(u, "Kernel Time (µs)_sum").float_at(3) == Approx(1));
  // Percentages of the 10 µs total.
  CHECK(col(u, "Percentage (%)").float_at(0) == Approx(40));
  CHECK(col(u, "Cumulative Percentage (%)").float_at(3) == Approx(100));
}

TEST_CASE("unified_perf_summary: the sole backward op of a modeled forward op", "[perf]") {
  // aten::sum (Reduce model) on thread 1 with Sequence number 5; on thread 2 the autograd
  // wrapper "evaluate_function: SumBackward0" (same sequence number, so linked to the
  // sum, §2.7) holds the one SumBackward0 op, which launches expand_k (3 µs). The
  // SumBackward0 row takes the forward model's bwd category and backward metrics:
  // flops_bwd = num_input_elems = 8·8 = 64, bytes_bwd = (1 + 64)·4 = 260; its kernel time
  // is the wrapper subtree's (3 µs); perf_params are the forward op's.
  const std::string sum = R"("Input Dims":[[8,8]],"Input type":["float"],"Input Strides":[[8,1]],"Concrete Inputs":["",""],"Sequence number":5)";
  test::TraceBuilder t;
  t.cpu_op("aten::sum", 10, 5, sum).launch(11, "sum_k", 100, 2)
      .raw(R"({"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: SumBackward0","pid":1,"tid":2,"ts":50,"dur":20,"args":{"Sequence number":5}})")
      .raw(R"({"ph":"X","cat":"cpu_op","name":"SumBackward0","pid":1,"tid":2,"ts":51,"dur":10,"args":{}})")
      .raw(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":2,"ts":52,"dur":0.5,"args":{"correlation":99}})")
      .raw(R"({"ph":"s","cat":"ac2g","name":"ac2g","id":99,"pid":1,"tid":2,"ts":52})")
      .raw(R"({"ph":"f","cat":"ac2g","name":"ac2g","id":99,"pid":0,"tid":7,"ts":200,"bp":"e"})")
      .raw(R"({"ph":"X","cat":"kernel","name":"expand_k","pid":0,"tid":7,"ts":200,"dur":3,"args":{"correlation":99,"stream":7}})");
  const Table u = unified_summary(t.json()).table;
  REQUIRE(u.num_rows() == 2);
  CHECK(col(u, "name").string_at(0) == "SumBackward0");
  CHECK(col(u, "op category").string_at(0) == "Reduce_bwd");
  CHECK(col(u, "has_perf_model").bool_at(0));
  CHECK(col(u, "Kernel Time (µs)_sum").float_at(0) == Approx(3));
  CHECK(col(u, "GFLOPS").float_at(0) == Approx(64e-9));
  CHECK(col(u, "Data Moved (MB)").float_at(0) == Approx(260.0 / (1024 * 1024)));
  CHECK(col(u, "perf_params").string_at(0) ==
        "{'num_input_elems': 64, 'num_output_elems': 1, 'dtype_in_out': ('float', None), 'reduce_type': 'sum'}");
  CHECK(col(u, "name").string_at(1) == "aten::sum");
  CHECK(col(u, "op category").string_at(1) == "reduce");
  CHECK(col(u, "Kernel Time (µs)_sum").float_at(1) == Approx(2));
}
