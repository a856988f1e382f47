// TraceLens's --group_by_num_kernels in the perf-model sheets: rows grouped by the
// number of GPU events of each op too, in a num_kernels column after the params.
#include <catch2/catch.hpp>

#include "analyses/ops/trace_builder.h"
#include "analyses/perf/perf_sheets.h"
#include "ingest/trace_reader.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

namespace {

// Three aten::mm calls with equal params: one kernel of 10 µs; two kernels of 4 and 3 µs
// (busy 7); one kernel of 5 µs.
std::string three_mm() {
  const std::string mm =
      R"("Input Dims":[[4,8],[8,16]],"Input type":["float","float"],"Input Strides":[[8,1],[16,1]],"Concrete Inputs":["",""])";
  test::TraceBuilder t;
  t.cpu_op("aten::mm", 10, 5, mm).launch(11, "gemm", 100, 10)
      .cpu_op("aten::mm", 20, 5, mm).launch(21, "gemm", 120, 4).launch(22, "gemm_tail", 125, 3)
      .cpu_op("aten::mm", 30, 5, mm).launch(31, "gemm", 140, 5);
  return t.json();
}

}  // namespace

TEST_CASE("perf sheets: --group-by-num-kernels splits equal params by kernel count", "[perf]") {
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(three_mm()));
  REQUIRE(r.ok());
  const TraceTree tree = TraceTree::build(*r.value());

  const std::vector<Table> plain = perf_model_tables(*r.value(), tree);
  REQUIRE(plain.size() == 1);
  REQUIRE(plain[0].num_rows() == 1);
  CHECK(col(plain[0], "name_count").int_at(0) == 3);
  CHECK(col(plain[0], "Kernel Time (µs)_sum").float_at(0) == Approx(22));

  PerfSheetOptions options;
  options.group_by_num_kernels = true;
  const std::vector<Table> split = perf_model_tables(*r.value(), tree, options);
  REQUIRE(split.size() == 1);
  const Table& gemm = split[0];
  CHECK(gemm.name() == "GEMM");
  size_t at = 0;
  while (gemm.column(at).name() != "num_kernels") ++at;
  CHECK(gemm.column(at - 1).name().rfind("param: ", 0) == 0);
  CHECK(gemm.column(at + 1).name() == "GFLOPS_first");
  // By Kernel Time sum descending: one kernel (10 + 5 µs, 2 calls), two kernels (7 µs).
  REQUIRE(gemm.num_rows() == 2);
  CHECK(col(gemm, "num_kernels").int_at(0) == 1);
  CHECK(col(gemm, "name_count").int_at(0) == 2);
  CHECK(col(gemm, "Kernel Time (µs)_sum").float_at(0) == Approx(15));
  CHECK(col(gemm, "num_kernels").int_at(1) == 2);
  CHECK(col(gemm, "name_count").int_at(1) == 1);
  CHECK(col(gemm, "Kernel Time (µs)_sum").float_at(1) == Approx(7));
}

TEST_CASE("perf sheets: a bwd row's num_kernels counts the kernels of its bwd subtree", "[perf]") {
  // aten::sum (Reduce model, one kernel) with Sequence number 5; on thread 2 its autograd
  // wrapper "evaluate_function: SumBackward0" launches two kernels (§2.7 links the two).
  const std::string sum =
      R"("Input Dims":[[8,8]],"Input type":["float"],"Input Strides":[[8,1]],"Concrete Inputs":["",""],"Sequence number":5)";
  test::TraceBuilder t;
  t.cpu_op("aten::sum", 10, 5, sum).launch(11, "sum_k", 100, 2)
      .raw(R"({"ph":"X","cat":"cpu_op","name":"autograd::engine::evaluate_function: SumBackward0","pid":1,"tid":2,"ts":50,"dur":20,"args":{"Sequence number":5}})")
      .raw(R"({"ph":"X","cat":"cpu_op","name":"SumBackward0","pid":1,"tid":2,"ts":51,"dur":10,"args":{}})");
  for (int k = 0; k < 2; ++k) {
    const std::string c = std::to_string(90 + k), ts = std::to_string(52 + k), gpu_ts = std::to_string(200 + 10 * k);
    t.raw(R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":2,"ts":)" + ts +
          R"(,"dur":0.5,"args":{"correlation":)" + c + "}}")
        .raw(R"({"ph":"s","cat":"ac2g","name":"ac2g","id":)" + c + R"(,"pid":1,"tid":2,"ts":)" + ts + "}")
        .raw(R"({"ph":"f","cat":"ac2g","name":"ac2g","id":)" + c + R"(,"pid":0,"tid":7,"ts":)" + gpu_ts +
             R"(,"bp":"e"})")
        .raw(R"({"ph":"X","cat":"kernel","name":"expand_k","pid":0,"tid":7,"ts":)" + gpu_ts +
             R"(,"dur":3,"args":{"correlation":)" + c + R"(,"stream":7}})");
  }
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(t.json()));
  REQUIRE(r.ok());
  const TraceTree tree = TraceTree::build(*r.value());
  PerfSheetOptions options;
  options.group_by_num_kernels = true;
  const std::vector<Table> sheets = perf_model_tables(*r.value(), tree, options);
  REQUIRE(sheets.size() == 2);
  CHECK(sheets[0].name() == "Reduce_fwd");
  CHECK(col(sheets[0], "num_kernels").int_at(0) == 1);
  CHECK(sheets[1].name() == "Reduce_bwd");
  CHECK(col(sheets[1], "name").string_at(0) == "aten::sum");  // the forward op's name
  CHECK(col(sheets[1], "num_kernels").int_at(0) == 2);
  CHECK(col(sheets[1], "Kernel Time (µs)_sum").float_at(0) == Approx(6));
}
