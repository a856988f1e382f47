// InferenceAttention_fwd on a real trace without a TraceLens reference for it: SGLang's
// graph-capture trace of Qwen3-8B decode (bs 32) records 36 sglang::store_cache ops
// (one per layer), captured, so without kernels. As TraceLens writes captured ops on
// its perf sheets (its vllm_decode_full capture report's RMSNorm_fwd rows have no
// kernels either), they make one row. Hand computation: k = (32, 1024) bf16, 32,768
// elements; bytes = 4·32,768·2 = 262,144 = 0.25 MiB; no FLOPs.
#include <catch2/catch.hpp>

#include <string>

#include "support/golden_fixtures.h"
#include "support/golden_report.h"
#include "support/table_column.h"

using namespace sollens;
using test::col;

namespace {

std::string cell(const Column& c, size_t row) {
  switch (c.type()) {
    case ColumnType::kString: return c.string_at(row);
    case ColumnType::kInt: return std::to_string(c.int_at(row));
    case ColumnType::kFloat: return std::to_string(c.float_at(row));
    case ColumnType::kBool: return c.bool_at(row) ? "True" : "False";
  }
  return {};
}

}  // namespace

TEST_CASE("golden: SGLang's captured store_cache ops on InferenceAttention_fwd", "[golden]") {
  const auto g = test::report_of(test::kTraces / "tracelens-sglang-qwen3-8b-decode" / "capture_traces" / "bs_32_rank0.json.gz");
  REQUIRE(g.loaded);
  const Table* sheet = g.sheet("InferenceAttention_fwd");
  REQUIRE(sheet != nullptr);
  REQUIRE(sheet->num_rows() == 1);
  CHECK(col(*sheet, "name").string_at(0) == "sglang::store_cache");
  CHECK(cell(col(*sheet, "param: op_shape"), 0) == "(32, 1024)");
  CHECK(cell(col(*sheet, "param: nelems"), 0) == "32768");
  CHECK(cell(col(*sheet, "param: dtype"), 0) == "c10::BFloat16");
  CHECK(col(*sheet, "GFLOPS_first").float_at(0) == 0.0);
  CHECK(col(*sheet, "Data Moved (MB)_first").float_at(0) == 0.25);
  CHECK(col(*sheet, "Compute Spec").string_at(0) == "vector_bf16");
  CHECK(cell(col(*sheet, "name_count"), 0) == "36");
  CHECK(g.sheet("InferenceAttention_bwd") == nullptr);
}
