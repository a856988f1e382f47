// Param columns of a perf-model sheet follow pandas' dtype of the rows' dicts: a column
// of ints with a None or a missing key becomes float64 (ints print as "24.0", None and
// missing as "nan"). Here the mHC sheet mixes mhc_post (hc3 None, no K or split_k) and
// mhc_pre_gemm_sqrsum (hc3 24, K 256, split_k 2).
#include <catch2/catch.hpp>

#include "analyses/ops/trace_builder.h"
#include "analyses/perf/perf_sheets.h"
#include "ingest/trace_reader.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

TEST_CASE("perf sheets: None among ints makes a float param column", "[perf]") {
  const std::string post =
      R"("Input Dims":[[8,4,64],[8,64],[8,4,64],[8,4,1],[8,4,4],[]],)"
      R"("Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16","float","float","Scalar"])";
  const std::string pre =
      R"("Input Dims":[[2,8,24],[2,8],[8,4,64],[24,256],[],[]],)"
      R"("Input type":["float","float","c10::BFloat16","float","Scalar","Scalar"])";
  test::TraceBuilder t;
  t.cpu_op("aiter::mhc_post", 10, 5, post).launch(11, "post_kernel", 100, 5)
      .cpu_op("aiter::mhc_pre_gemm_sqrsum", 20, 5, pre).launch(21, "pre_kernel", 200, 3);
  Result<std::unique_ptr<EventStore>> r = load_trace(PaddedBuffer::copy_of(t.json()));
  REQUIRE(r.ok());
  const TraceTree tree = TraceTree::build(*r.value());
  const std::vector<Table> sheets = perf_model_tables(*r.value(), tree);
  REQUIRE(sheets.size() == 1);
  const Table& mhc = sheets[0];
  CHECK(mhc.name() == "mHC_fwd");
  REQUIRE(mhc.num_rows() == 2);  // mhc_post first: 5 µs of kernels against 3
  CHECK(col(mhc, "param: M").string_at(0) == "8");  // ints in every row stay ints
  CHECK(col(mhc, "param: hc3").string_at(0) == "nan");
  CHECK(col(mhc, "param: hc3").string_at(1) == "24.0");
  CHECK(col(mhc, "param: K").string_at(0) == "nan");
  CHECK(col(mhc, "param: K").string_at(1) == "256.0");
  CHECK(col(mhc, "param: dtype_in").string_at(0) == "c10::BFloat16");
}
